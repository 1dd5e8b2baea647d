//! Test helpers of the sharing screens: the shared fetch table and memory router
//! (components/payments/testing), a store with the real API, session, ui, snackbar and sharing
//! draft slices (signed in or not), and the sharing contract's answers (snake_case, as on the wire).
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api } from '../../../lib/api/api';
import { loginInfoSlice, tokensReceived } from '../../../lib/session/loginInfoSlice';
import { sharingDraftSlice, type SharingDraft } from '../../../lib/sharing/draft';
import { snackbarSlice, uiSlice } from '../../../lib/ui/uiSlice';

export { answer, renderAt, serve, type ApiCall } from '../../../components/payments/testing';

export function makeSharingStore({ signedIn = true, draft }: { signedIn?: boolean; draft?: Partial<SharingDraft> } = {}) {
  const store = configureStore({
    reducer: combineReducers({
      [api.reducerPath]: api.reducer,
      loginInfo: loginInfoSlice.reducer,
      ui: uiSlice.reducer,
      snackbar: snackbarSlice.reducer,
      sharingDraft: sharingDraftSlice.reducer,
    }),
    preloadedState: draft
      ? { sharingDraft: { folderId: 'folder-1', wholeFolder: true, itemIds: [], copyType: null, recipients: [], ...draft } }
      : undefined,
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  if (signedIn) store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}
export type SharingStore = ReturnType<typeof makeSharingStore>;

export const apiFolder = (overrides: Record<string, unknown> = {}) => ({
  id: 'folder-1',
  name: 'Car rental',
  file_count: 2,
  used_bytes: 2000,
  created_at: '2026-03-04T10:00:00Z',
  expiration_date: '2027-03-04T10:00:00Z',
  expired: false,
  expire_soon: false,
  ...overrides,
});

export const apiItem = (overrides: Record<string, unknown> = {}) => ({
  id: 'item-1',
  folder_id: 'folder-1',
  name: 'Front bumper',
  media_type: 'image',
  mime_type: 'image/jpeg',
  file_size: 1000,
  sha256: 'a'.repeat(64),
  status: 'verified',
  rejection_reason: '',
  uploaded: true,
  city: 'Berlin',
  address: 'Berlin, BE, DE',
  country_code: 'DE',
  latitude: 52.52,
  longitude: 13.405,
  duration: null,
  captured_at: '2026-03-04T10:05:00Z',
  uploaded_at: '2026-03-04T10:06:00Z',
  expiration_date: '2027-03-04T10:00:00Z',
  expired: false,
  expire_soon: false,
  thumbnail: null,
  temporary_file_url: null,
  can_retake: true,
  ...overrides,
});

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
