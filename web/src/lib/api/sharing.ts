//! Paying for a share (`POST sharing/folder/{folderId}/share/`), the one sharing call another
//! feature makes: checkout, which sends it like stored-account/pay, with an Idempotency-Key per
//! attempt (a retry with the same key is the same share and the same charge). The rest of the
//! sharing API is the sharing feature's (`features/sharing/api`), which adds to the 'Share' tag
//! declared here.
//!
//! The types are written by hand in the shapes of the OpenAPI document, as the sharing feature's
//! are (features/sharing/api/types.ts says why).
import type { CopyType, DraftRecipient, SharingDraft } from '../sharing/draft';
import { api } from './api';
import type { StoredAccount, Transaction } from './payments';

export type PayWith = 'wallet' | 'card';

/** A recipient as the request names one: an e-mail address or a phone number. */
export type ShareRecipientInput = { email: string } | { phone_number: { country_code: string; national_number: string } };

export interface ShareRequest {
  copy_type: CopyType;
  /** [] shares the whole folder. */
  item_ids: string[];
  recipients: ShareRecipientInput[];
  pay_with: PayWith;
}

/** What checkout reads of the answer; the whole share is `features/sharing/api/types.ts`'s `Share`. */
export interface SharePaid {
  share: { id: string; folderId: string };
  transaction: Transaction;
  storedAccount: StoredAccount;
}

export function recipientInput(recipient: DraftRecipient): ShareRecipientInput {
  if ('email' in recipient) return { email: recipient.email.trim() };
  return { phone_number: { country_code: recipient.phoneNumber.countryCode, national_number: recipient.phoneNumber.nationalNumber } };
}

/** The request body of a complete draft. */
export function shareRequest(draft: SharingDraft & { copyType: CopyType }, payWith: PayWith): ShareRequest {
  return {
    copy_type: draft.copyType,
    item_ids: draft.wholeFolder ? [] : draft.itemIds,
    recipients: draft.recipients.map(recipientInput),
    pay_with: payWith,
  };
}

export const sharingTags = api.enhanceEndpoints({ addTagTypes: ['Share', 'Chat', 'Futuregram'] });

export const sharePaymentApi = sharingTags.injectEndpoints({
  endpoints: (build) => ({
    shareFolder: build.mutation<SharePaid, { folderId: string; body: ShareRequest; idempotencyKey: string }>({
      query: ({ folderId, body, idempotencyKey }) => ({
        url: `sharing/folder/${encodeURIComponent(folderId)}/share/`,
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (_r, _e, { folderId }) => [
        { type: 'Share', id: folderId },
        'StoredAccount',
        'Wallet',
        'Me',
        'Transactions',
        { type: 'Item', id: `folder:${folderId}` },
      ],
    }),
  }),
});

export const { useShareFolderMutation } = sharePaymentApi;
