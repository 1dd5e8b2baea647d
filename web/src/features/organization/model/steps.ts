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

/** Contributions in a step that wait for a participant's decision. */
export function pendingFiles(items: readonly Pick<OrganizationItem, 'reviewState'>[]): number {
  return items.filter((item) => item.reviewState === 'pending').length;
}

/**
 * How full a step is, in the server's count (verified files, contributions once accepted: the
 * same rule that marks the step complete), with what waits for review:
 * '1 of 2 files · at least 1 · 1 waiting for review'.
 */
export function stepCountText(step: { fileCount: number; maxFiles: number; minFiles: number }, pending: number): string {
  const parts = [`${step.fileCount} of ${step.maxFiles} ${step.maxFiles === 1 ? 'file' : 'files'}`];
  if (step.minFiles > 0) parts.push(`at least ${step.minFiles}`);
  if (pending > 0) parts.push(`${pending} waiting for review`);
  return parts.join(' · ');
}
