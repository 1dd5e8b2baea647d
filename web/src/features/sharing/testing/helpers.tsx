//! Test helpers of the sharing screens: a store with a sharing draft (signed in or not), and the
//! sharing contract's answers (snake_case, as on the wire). The harness itself is `src/testing`.
import type { SharingDraft } from '../../../lib/sharing/draft';
import { apiFolder as anyFolder, apiItem as anyItem, makeTestStore } from '../../../testing';

export function makeSharingStore({ signedIn = true, draft }: { signedIn?: boolean; draft?: Partial<SharingDraft> } = {}) {
  return makeTestStore({
    signedIn,
    preloadedState: draft
      ? { sharingDraft: { folderId: 'folder-1', wholeFolder: true, itemIds: [], copyType: null, recipients: [], ...draft } }
      : undefined,
  });
}

export const apiFolder = (overrides: Record<string, unknown> = {}) => anyFolder({ file_count: 2, used_bytes: 2000, ...overrides });

export const apiItem = (overrides: Record<string, unknown> = {}) =>
  anyItem({ name: 'Front bumper', file_size: 1000, thumbnail: null, temporary_file_url: null, ...overrides });

export const apiRecipient = (overrides: Record<string, unknown> = {}) => ({
  id: 'r1',
  sent_to: 'jane@example.com',
  channel: 'email',
  transaction_number: 'EVD-7K3Q-9XTM',
  state: 'sent',
  copies_ready: 2,
  copies_total: 2,
  ...overrides,
});

export const apiShare = (overrides: Record<string, unknown> = {}) => ({
  id: 'share-1',
  folder_id: 'folder-1',
  copy_type: 'authenticated',
  created_at: '2026-03-05T09:00:00Z',
  revoked_at: null,
  item_count: 2,
  payment_transaction_number: 'EVD-2026-000042',
  public_link: null,
  recipients: [apiRecipient()],
  ...overrides,
});

export const apiSharedItem = (overrides: Record<string, unknown> = {}) => ({
  id: 'copy-1',
  name: 'Front bumper',
  media_type: 'image',
  state: 'ready',
  url: 'http://s3.local/copy-1.jpg',
  download_url: 'http://s3.local/copy-1.jpg?download',
  sha256: 'c'.repeat(64),
  size_bytes: 2048,
  duration: null,
  ...overrides,
});

export const apiSharedFolder = (overrides: Record<string, unknown> = {}) => ({
  folder_name: 'Car rental',
  copy_type: 'authenticated',
  watermark: {
    copy_type: 'authenticated',
    generated_for: 'Ann Owner',
    sent_to: 'jane@example.com',
    generated_on: '2026-03-05T09:00:00Z',
    transaction_number: 'EVD-7K3Q-9XTM',
  },
  items: [apiSharedItem()],
  ...overrides,
});

export const apiVerification = (overrides: Record<string, unknown> = {}) => ({
  transaction_number: 'EVD-7K3Q-9XTM',
  copy_type: 'authenticated',
  generated_for: 'Ann Owner',
  sent_to: 'j***@example.com',
  generated_on: '2026-03-05T09:00:00Z',
  revoked: false,
  items: [
    {
      name: 'Front bumper',
      media_type: 'image',
      copy_sha256: 'c'.repeat(64),
      original_sha256: 'a'.repeat(64),
      captured_at: '2026-03-04T10:05:00Z',
      latitude: 52.52,
      longitude: 13.405,
      city: 'Berlin',
      address: 'Berlin, BE, DE',
      received_at: '2026-03-04T10:06:00Z',
    },
    {
      name: 'Dent video',
      media_type: 'video',
      copy_sha256: 'd'.repeat(64),
      original_sha256: 'b'.repeat(64),
      captured_at: '2026-03-04T10:07:00Z',
      latitude: 52.52,
      longitude: 13.405,
      city: 'Berlin',
      address: 'Berlin, BE, DE',
      received_at: '2026-03-04T10:08:00Z',
    },
  ],
  ...overrides,
});
