//! Test helpers of the organization screens: the API's organization, participants, invites,
//! templates, folders and contribution links.

export const apiOrganization = (role: string, overrides: Record<string, unknown> = {}) => ({
  id: 'org-1',
  name: 'Acme Rentals',
  role,
  created_at: '2026-11-01T12:00:00Z',
  ...overrides,
});

export const OWNER = {
  user_id: 'u-owner',
  username: 'ann',
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@example.com',
  role: 'owner',
  joined_at: '2026-11-01T12:00:00Z',
};
export const ADMIN = {
  user_id: 'u-admin',
  username: 'dan',
  first_name: '',
  last_name: '',
  email: 'dan@example.com',
  role: 'admin',
  joined_at: '2026-11-05T12:00:00Z',
};
export const MEMBER = {
  user_id: 'u-member',
  username: 'bob',
  first_name: 'Bob',
  last_name: 'Stone',
  email: 'bob@example.com',
  role: 'member',
  joined_at: '2026-11-20T12:00:00Z',
};
export const EMAIL_INVITE = {
  id: 'inv-1',
  channel: 'email',
  sent_to: 'cy@example.com',
  role: 'member',
  expires_at: '2026-11-28T12:00:00Z',
  created_at: '2026-11-21T12:00:00Z',
};
export const SMS_INVITE = {
  id: 'inv-2',
  channel: 'sms',
  sent_to: '+1 5551234567',
  role: 'admin',
  expires_at: '2026-11-27T12:00:00Z',
  created_at: '2026-11-20T12:00:00Z',
};

// --- organization capture: templates, folders, contribution links ---
export const apiTemplateStep = (overrides: Record<string, unknown> = {}) => ({
  id: 'st-1',
  name: 'Front of the parcel',
  instructions: 'Show the label.',
  media_types: ['image'],
  min_files: 1,
  max_files: 3,
  ...overrides,
});

export const apiTemplate = (overrides: Record<string, unknown> = {}) => ({
  id: 't-1',
  name: 'Parcel intake',
  description: 'What arrives at the warehouse.',
  archived: false,
  steps: [apiTemplateStep(), apiTemplateStep({ id: 'st-2', name: 'Damage', instructions: '', media_types: ['image', 'video'], min_files: 0 })],
  created_at: '2026-11-01T12:00:00Z',
  updated_at: '2026-11-02T12:00:00Z',
  ...overrides,
});

export const apiFolderSummary = (overrides: Record<string, unknown> = {}) => ({
  id: 'of-1',
  name: 'Warehouse 7 intake',
  template_id: 't-1',
  template_name: 'Parcel intake',
  created_at: '2026-11-21T12:00:00Z',
  storage_expires_at: '2027-11-21T12:00:00Z',
  expired: false,
  expire_soon: false,
  step_count: 2,
  steps_complete: 1,
  pending_count: 3,
  file_count: 4,
  ...overrides,
});

export const apiItem = (overrides: Record<string, unknown> = {}) => ({
  id: 'i-1',
  folder_id: 'of-1',
  name: 'Photo_20261121_090512',
  media_type: 'image',
  mime_type: 'image/jpeg',
  file_size: 2048,
  sha256: 'b'.repeat(64),
  status: 'verified',
  uploaded: true,
  rejection_reason: '',
  thumbnail: null,
  address: '',
  city: '',
  country_code: '',
  can_retake: true,
  expired: false,
  expire_soon: false,
  step_id: 'st-1',
  review_state: null,
  contributor_email: null,
  ...overrides,
});

export const apiLink = (overrides: Record<string, unknown> = {}) => ({
  id: 'l-1',
  folder_id: 'of-1',
  url: 'https://evidentia.test/organization-sharing/verification/of-1?link=L-1',
  channel: 'email',
  sent_to: 'cy@example.com',
  expires_at: '2026-11-28T12:00:00Z',
  max_submissions: 10,
  submissions: 2,
  state: 'active',
  created_at: '2026-11-21T12:00:00Z',
  ...overrides,
});
