//! Delete files (`/delete-files/:folderId`): pick files, delete the selection after a confirmation;
//! leaving with a selection asks 'Leave this page?' first (in-app navigation and page unload alike).
import { useEffect, useRef, useState } from 'react';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage } from '../../../lib/api/errors';
import { useDeleteItemMutation, useFolderQuery, useItemsQuery } from '../../../lib/api/evidence';
import { formatDateTime, formatFileSize } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { FileThumbnail } from '../components/FileThumbnail';
import { allSelected, allToggled, pruned, toggled, type Selection } from '../model/selection';
import { folderViewUrl } from '../paths';
import { FolderGone, isGone, LoadFailed } from '../../../components/LoadFailed';
import { BackControl } from '../../../components/BackControl';

export const LEAVE_TITLE = 'Leave this page?';
export const LEAVE_SUBTITLE = 'Your progress and data will be lost.';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

export function DeleteFilesPage() {
  const { folderId = '' } = useParams();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const folder = useFolderQuery(folderId);
  const items = useItemsQuery(folderId);
  const [deleteItem] = useDeleteItemMutation();
  const [chosen, setChosen] = useState<Selection>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Set just before the screen leaves on its own (after deleting), so the guard lets it go.
  const leavingRef = useRef(false);

  const ids = items.data?.map((item) => item.id) ?? [];
  // Files deleted meanwhile (elsewhere) drop out of the selection.
  const selection = pruned(chosen, ids);
  const dirty = selection.size > 0;

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leavingRef.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const removeSelected = async () => {
    setDeleting(true);
    let failed: unknown;
    let deleted = 0;
    for (const id of selection) {
      const result = await deleteItem({ id, folderId });
      if ('error' in result) failed = result.error;
      else deleted += 1;
    }
    setDeleting(false);
    setConfirming(false);
    if (failed !== undefined) {
      dispatch(showSnackbar({ message: firstErrorMessage(failed, 'Some files were not deleted.'), type: 'error' }));
      setChosen(new Set());
      return;
    }
    dispatch(showSnackbar({ message: `${files(deleted)} deleted.`, type: 'success' }));
    leavingRef.current = true;
    void navigate(folderViewUrl(folderId));
  };

  if ((folder.isError && isGone(folder.error)) || (items.isError && isGone(items.error))) return <FolderGone />;

  return (
    <main className="page files">
      <BackControl to={folderViewUrl(folderId)} label={folder.data?.name ?? 'Folder'} />
      <h1>Delete files</h1>
      {items.isLoading && <p className="muted">Loading…</p>}
      {items.isError && <LoadFailed what="The files could not be loaded." error={items.error} onRetry={() => void items.refetch()} />}
      {items.data?.length === 0 && <p className="muted">This folder has no files.</p>}
      {ids.length > 0 && (
        <label className="files-select-all">
          <input type="checkbox" checked={allSelected(selection, ids)} onChange={() => setChosen(allToggled(selection, ids))} />
          Select all
        </label>
      )}
      <ul className="files-list" aria-label="Files">
        {items.data?.map((item) => (
          <li key={item.id} className="files-row files-row--selectable">
            <label className="files-row__select">
              <input type="checkbox" checked={selection.has(item.id)} onChange={() => setChosen(toggled(selection, item.id))} aria-label={item.name} />
              <FileThumbnail item={item} />
              <span className="files-row__body">
                <span className="files-row__name" title={item.name}>
                  {item.name}
                </span>
                <span className="files-row__meta">
                  {item.capturedAt && formatDateTime(item.capturedAt)} · {formatFileSize(item.fileSize)}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <PrimaryButton variant="red" disabled={!dirty} onClick={() => setConfirming(true)} className="files-delete-button">
        {dirty ? `Delete ${files(selection.size)}` : 'Delete'}
      </PrimaryButton>

      <ConfirmDialog
        isOpen={confirming}
        title="Delete files?"
        subTitle={`${files(selection.size)} will be deleted permanently.`}
        buttons={[
          { text: 'Delete', onClick: () => void removeSelected(), isHighlighted: true, disabled: deleting },
          { text: 'Cancel', onClick: () => setConfirming(false), disabled: deleting },
        ]}
      />
      <ConfirmDialog
        isOpen={blocker.state === 'blocked'}
        title={LEAVE_TITLE}
        subTitle={LEAVE_SUBTITLE}
        buttons={[
          { text: 'Leave', onClick: () => blocker.proceed?.(), isHighlighted: true },
          { text: 'Cancel', onClick: () => blocker.reset?.() },
        ]}
      />
    </main>
  );
}
