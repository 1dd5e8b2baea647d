//! Test helpers of the organization screens: the API's organization, participants and invites, and
//! the contract's bodiless 204 answer.
import { answer } from '../../../components/payments/testing';

export const noContent = () => answer(204, null);

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
