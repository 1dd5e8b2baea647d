//! How an organization folder's step reads: the files that count toward it, and the words for a
//! file's state and a contribution's review.
import type { OrganizationItem, ReviewState } from '../api/types';

export const REVIEW_LABELS: Record<ReviewState, string> = { pending: 'Pending', accepted: 'Accepted', declined: 'Declined' };

export const ITEM_STATUS_LABELS: Record<string, string> = {
  awaiting_upload: 'Awaiting upload',
  uploaded: 'Uploaded, checking',
  verified: 'Verified',
  rejected: 'Rejected',
};

/** The files that count toward a step: a declined contribution does not. */
export function countedFiles(items: readonly Pick<OrganizationItem, 'reviewState'>[]): number {
  return items.filter((item) => item.reviewState !== 'declined').length;
}
