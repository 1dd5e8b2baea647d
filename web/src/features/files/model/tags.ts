//! The storage-date tag chips of spec §2 and §4: 'EXPIRES SOON' (red) with the date, 'Expired' (grey).
import { formatDate } from '../../../lib/format/format';

export interface StorageTagInfo {
  label: 'EXPIRES SOON' | 'Expired';
  tone: 'red' | 'grey';
  /** The storage date ('MMM D, YYYY'), beside 'EXPIRES SOON'. */
  date?: string;
}

export interface StorageState {
  expired: boolean;
  expireSoon: boolean;
  expirationDate?: string | null;
}

/** The tag of a folder or file, or undefined when its storage date is neither near nor past. */
export function storageTag({ expired, expireSoon, expirationDate }: StorageState, timeZone?: string): StorageTagInfo | undefined {
  if (expired) return { label: 'Expired', tone: 'grey' };
  if (expireSoon) {
    const date = expirationDate ? formatDate(expirationDate, timeZone) : '';
    return date ? { label: 'EXPIRES SOON', tone: 'red', date } : { label: 'EXPIRES SOON', tone: 'red' };
  }
  return undefined;
}
