//! Which action menu of spec §2 a file gets, and what it lists (docs/decisions.md "My Files").
import type { Item } from '../../../lib/api/evidence';

export type MenuKind = 'full' | 'editable' | 'read-only';
export type FileAction = 'rename' | 'retake' | 'details' | 'download' | 'delete';

/** Where the file is shown: the owner's own folders, or someone else's (shared, organization). */
export type FileContext = 'owner' | 'shared';

/** A file as the folder view holds it. */
export type FileItem = Item;

export const ACTION_LABELS: Record<FileAction, string> = {
  rename: 'Rename',
  retake: 'Retake',
  details: 'Details',
  download: 'Download',
  delete: 'Delete',
};

/**
 * The owner's verified file gets the full menu; the owner's file that is not yet verified (still
 * awaiting its bytes, being checked, or rejected) gets the editable one, since there is nothing to
 * download yet; any file seen in someone else's folder gets the read-only one.
 */
export function menuKind(item: Pick<FileItem, 'status'>, context: FileContext): MenuKind {
  if (context === 'shared') return 'read-only';
  return item.status === 'verified' ? 'full' : 'editable';
}

/** Retake in the editable menu: a rejected file, or one whose bytes never arrived, when allowed. */
export function editableRetakeAllowed(item: Pick<FileItem, 'status' | 'canRetake'>): boolean {
  // `canRetake`: the service allows it (the folder has not expired).
  return (item.status === 'rejected' || item.status === 'awaiting_upload') && item.canRetake;
}

/** The actions of the menu `kind`, in the spec's order. */
export function menuActions(kind: MenuKind, item: Pick<FileItem, 'status' | 'canRetake'>): FileAction[] {
  switch (kind) {
    case 'full':
      return ['rename', 'retake', 'details', 'download', 'delete'];
    case 'read-only':
      return ['details', 'download'];
    case 'editable':
      return editableRetakeAllowed(item) ? ['rename', 'retake', 'details', 'delete'] : ['rename', 'details', 'delete'];
  }
}

/** The capture screen's mode for retaking `mediaType`. */
export function captureMode(mediaType: string): 'photo' | 'video' | 'audio' {
  if (mediaType === 'video') return 'video';
  if (mediaType === 'audio') return 'audio';
  return 'photo';
}

/** The capture screen's address for retaking `item`, coming back to `returnTo`. */
export function retakeUrl(item: Pick<FileItem, 'id' | 'folderId' | 'mediaType'>, returnTo: string): string {
  const query = new URLSearchParams({
    situation: item.folderId,
    retake: item.id,
    mode: captureMode(item.mediaType),
    returnTo,
  });
  return `/evidence?${query.toString()}`;
}
