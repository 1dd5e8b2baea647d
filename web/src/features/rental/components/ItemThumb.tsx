//! A capture's thumbnail (a presigned link the service makes for photos and video poster frames),
//! or, until there is one, what the capture is and where its upload stands.
import { formatDateTime } from '../../../lib/format/format';
import { captureTime } from '../model/progress';
import type { RentalItem } from '../model/rental';

function stateLabel(item: RentalItem): string | null {
  if (item.status === 'awaiting_upload') return 'Uploading';
  if (item.status === 'uploaded') return 'Checking';
  return null;
}

export function ItemThumb({ item, showTime = false }: { item: RentalItem; showTime?: boolean }) {
  const state = stateLabel(item);
  const kind = item.mediaType === 'video' ? 'Video' : item.mediaType === 'audio' ? 'Audio' : 'Photo';
  const time = captureTime(item);
  return (
    <figure className="rental-thumb">
      {item.thumbnail ? (
        <img className="rental-thumb__img" src={item.thumbnail} alt={item.name} loading="lazy" />
      ) : (
        <div className="rental-thumb__img rental-thumb__img--empty" role="img" aria-label={item.name}>
          {kind}
        </div>
      )}
      {item.mediaType === 'video' && item.thumbnail && (
        <span className="rental-thumb__badge" aria-hidden="true">
          ▶
        </span>
      )}
      {(state || (showTime && time)) && (
        <figcaption className="rental-thumb__caption">
          {state ?? <time dateTime={time}>{formatDateTime(time)}</time>}
        </figcaption>
      )}
    </figure>
  );
}
