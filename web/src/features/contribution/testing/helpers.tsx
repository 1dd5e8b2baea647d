//! Test helpers of the contributor screens: the contract's answers and a proven e-mail in
//! sessionStorage. A contributor is anonymous: `makeTestStore({ signedIn: false })`.
import { saveContribution } from '../model/token';

export const FOLDER = 'f-1';
export const STEP = 's-1';
export const TOKEN = 'ct-123';

export function proven(expiresAt = '2099-01-01T00:00:00Z') {
  saveContribution({ folderId: FOLDER, token: TOKEN, expiresAt });
}

export const apiDetails = (overrides: Record<string, unknown> = {}) => ({
  folder_id: FOLDER,
  folder_name: 'Warehouse 7 intake',
  organization_name: 'Acme Rentals',
  email: 'cy@example.com',
  expires_at: '2026-12-01T12:00:00Z',
  submissions_left: 9,
  ...overrides,
});

export const apiStep = (overrides: Record<string, unknown> = {}) => ({
  id: STEP,
  name: 'Front of the parcel',
  instructions: 'Show the label.',
  media_types: ['image'],
  min_files: 1,
  max_files: 3,
  ...overrides,
});

export const apiSubmission = (overrides: Record<string, unknown> = {}) => ({
  id: 'e-1',
  step_id: STEP,
  name: 'Photo_20261121_090512',
  media_type: 'image',
  mime_type: 'image/jpeg',
  file_size: 2048,
  sha256: 'b'.repeat(64),
  status: 'verified',
  rejection_reason: '',
  captured_at: '2026-11-21T09:05:12Z',
  received_at: '2026-11-21T09:05:20Z',
  verified_at: '2026-11-21T09:05:30Z',
  ...overrides,
});
