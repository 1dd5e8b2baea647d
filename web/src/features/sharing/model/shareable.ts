//! Which of a folder's files can be shared: a stored, checked file whose storage date has not
//! passed. An expired file (or folder) is refused with spec §8's 'Please extend your Storage Date
//! for this file.'; a file still on its way cannot be copied yet.
import type { Folder, Item } from '../../../lib/api/evidence';

export type Blocked = 'expired' | 'not-uploaded' | null;

export function blockedReason(item: Pick<Item, 'expired' | 'status'>, folder?: Pick<Folder, 'expired'>): Blocked {
  if (item.expired || folder?.expired) return 'expired';
  return item.status === 'verified' ? null : 'not-uploaded';
}

/** The whole folder can be shared when it has files and none is blocked. */
export function wholeFolderBlocked(items: readonly Pick<Item, 'expired' | 'status'>[], folder?: Pick<Folder, 'expired'>): Blocked {
  if (folder?.expired) return 'expired';
  for (const item of items) {
    const reason = blockedReason(item, folder);
    if (reason) return reason;
  }
  return null;
}
