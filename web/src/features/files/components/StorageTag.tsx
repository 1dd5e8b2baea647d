//! A folder's or file's storage tag chip: 'EXPIRES SOON' (red) with the date, or 'Expired' (grey).
import { storageTag, type StorageState } from '../model/tags';

export function StorageTag({ state }: { state: StorageState }) {
  const tag = storageTag(state);
  if (!tag) return null;
  return (
    <span className={`files-tag files-tag--${tag.tone}`}>
      {tag.label}
      {tag.date && <span className="files-tag__date"> {tag.date}</span>}
    </span>
  );
}
