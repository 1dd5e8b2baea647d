//! A stored file's upload status as its row shows it (spec §4 "Upload state per file").
import type { Item } from '../../../lib/api/evidence';

export interface UploadStatusInfo {
  label: string;
  tone: 'ok' | 'pending' | 'error';
  /** Why the file was rejected. */
  reason?: string;
}

export function uploadStatus(item: Pick<Item, 'status' | 'rejectionReason'>): UploadStatusInfo {
  switch (item.status) {
    case 'verified':
      return { label: 'Uploaded', tone: 'ok' };
    case 'uploaded':
      return { label: 'Checking...', tone: 'pending' };
    case 'rejected':
      return { label: 'Error', tone: 'error', reason: item.rejectionReason || undefined };
    default:
      return { label: 'Not uploaded yet', tone: 'pending' };
  }
}
