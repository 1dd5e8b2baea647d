//! The action menu of one file (spec §2): full, editable or read-only, as a bottom sheet.
import { BottomSheet } from '../../../components/BottomSheet';
import { ACTION_LABELS, menuActions, menuKind, type FileAction, type FileContext, type FileItem } from '../model/menus';

interface Props {
  item: FileItem;
  context: FileContext;
  onAction: (action: FileAction) => void;
  onClose: () => void;
}

export function FileActionsSheet({ item, context, onAction, onClose }: Props) {
  const actions = menuActions(menuKind(item, context), item);
  return (
    <BottomSheet open title={item.name} onClose={onClose}>
      <ul className="files-menu" role="menu" aria-label={`Actions for ${item.name}`}>
        {actions.map((action) => (
          <li key={action} role="none">
            <button
              type="button"
              role="menuitem"
              className={`files-menu__item${action === 'delete' ? ' files-menu__item--danger' : ''}`}
              onClick={() => onAction(action)}
            >
              {ACTION_LABELS[action]}
            </button>
          </li>
        ))}
      </ul>
    </BottomSheet>
  );
}
