//! A file's thumbnail: the image or video poster when there is one, else an icon of its media type.
import type { Item } from '../../../lib/api/evidence';
import { MediaIcon } from './Icons';

export function FileThumbnail({ item, size = 'row' }: { item: Pick<Item, 'thumbnail' | 'mediaType' | 'name'>; size?: 'row' | 'tile' }) {
  if (item.thumbnail && item.mediaType !== 'audio') {
    return <img className={`files-thumb files-thumb--${size}`} src={item.thumbnail} alt={`Thumbnail of ${item.name}`} loading="lazy" />;
  }
  return (
    <span className={`files-thumb files-thumb--${size} files-thumb--icon`} role="img" aria-label={`${item.mediaType} file`}>
      <MediaIcon mediaType={item.mediaType} />
    </span>
  );
}
