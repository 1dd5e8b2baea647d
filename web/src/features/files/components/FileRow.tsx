//! A file as a list row or a grid tile (spec §2): thumbnail, name cut at 14 characters, date, size,
//! duration, upload status, storage tag, and its action menu button.
import type { Item } from '../../../lib/api/evidence';
import { formatDateTime, formatDuration, formatFileSize, truncateName } from '../../../lib/format/format';
import { uploadStatus } from '../model/status';
import { FileThumbnail } from './FileThumbnail';
import { StorageTag } from './StorageTag';

interface Props {
  item: Item;
  layout: 'list' | 'grid';
  onOpen: () => void;
  onMenu: () => void;
}

function UploadStatus({ item }: { item: Item }) {
  const status = uploadStatus(item);
  return (
    <span className={`files-status files-status--${status.tone}`}>
      {status.label}
      {status.reason && <span className="files-status__reason">: {status.reason}</span>}
    </span>
  );
}

export function FileRow({ item, layout, onOpen, onMenu }: Props) {
  const when = item.capturedAt ?? item.uploadedAt;
  const hasDuration = item.mediaType !== 'image' && item.duration != null;
  const block = layout === 'list' ? 'files-row' : 'files-tile';
  return (
    <li className={block} data-testid="file">
      <button type="button" className={`${block}__open`} onClick={onOpen} aria-label={`Open ${item.name}`}>
        <FileThumbnail item={item} size={layout === 'list' ? 'row' : 'tile'} />
      </button>
      <div className={`${block}__body`}>
        <span className={`${block}__name`} title={item.name} data-testid="file-name">
          {truncateName(item.name)}
        </span>
        <span className={`${block}__meta`}>
          {when && <time dateTime={when}>{formatDateTime(when)}</time>}
          {layout === 'list' && <span> · {formatFileSize(item.fileSize)}</span>}
          {hasDuration && <span> · {formatDuration(item.duration ?? 0)}</span>}
        </span>
        <UploadStatus item={item} />
        <StorageTag state={item} />
      </div>
      <button type="button" className={`${block}__more`} aria-label={`More actions for ${item.name}`} onClick={onMenu}>
        ⋮
      </button>
    </li>
  );
}
