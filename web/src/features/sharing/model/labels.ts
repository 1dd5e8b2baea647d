//! The words of the sharing screens: the copy types of spec §2 'Watermark banner' and §6, the
//! recipients' states, the custody log's entries, and the messages the spec does not give.
import type { CopyType, CustodyKind, RecipientState, SharedMediaType } from '../api/types';

/** Spec §2 'Watermark banner' badge, §6 copy types. */
export const COPY_TYPE_LABELS: Record<CopyType, string> = {
  authenticated: 'Authenticated Copy',
  unauthenticated: 'Unauthenticated Copy',
};

/** Spec §2 'Watermark banner' field names, word for word. */
export const WATERMARK_LABELS = {
  generatedFor: 'Generated for',
  sentTo: 'Sent To',
  generatedOn: 'Generated On',
  transactionNumber: 'Transaction Number',
} as const;

export const RECIPIENT_STATE_LABELS: Record<RecipientState, string> = {
  sent: 'Sent',
  opened: 'Opened',
  code_checked: 'Code checked',
};

export const CUSTODY_KIND_LABELS: Record<CustodyKind, string> = {
  captured: 'Captured',
  uploaded: 'Uploaded',
  verified: 'Verified',
  shared: 'Shared',
  copy_generated: 'Copy generated',
  code_sent: 'Code sent',
  code_checked: 'Code checked',
  viewed: 'Viewed',
  downloaded: 'Downloaded',
  revoked: 'Revoked',
  chat_message: 'Message',
  scheduled: 'Scheduled in a futuregram',
  released: 'Futuregram released',
  packet_exported: 'Exported in an evidence packet',
};

export const MEDIA_TYPE_LABELS: Record<SharedMediaType, string> = { image: 'Photo', video: 'Video', audio: 'Audio' };

/** Messages of ours (the spec gives none for these). */
export const MESSAGES = {
  duplicateRecipient: 'This recipient is already on the list.',
  tooManyRecipients: 'You can share with up to 20 recipients at once.',
  noRecipients: 'Add at least one recipient.',
  noItemsChosen: 'Choose at least one file.',
  notUploaded: 'This file has not been uploaded yet.',
  nothingToShare: 'This folder has no files to share yet.',
  revoked: 'The share was revoked. Its recipients can no longer open it.',
  revokeFailed: 'The share was not revoked.',
  linkCopied: 'Link copied.',
  linkNotCopied: 'The link could not be copied. Select it and copy it.',
  linkFailed: 'The public link was not changed.',
  noAccess: 'There is nothing to show here. Open the link from your message again.',
  codeNotSent: 'The code could not be sent.',
  codeNotChecked: 'The code could not be checked.',
  transactionNumberFormat: 'Enter a transaction number like EVD-7K3Q-9XTM.',
  fileNotRead: 'The file could not be read.',
  byteIdentical: 'This file is byte-identical to a copy we issued.',
} as const;

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
