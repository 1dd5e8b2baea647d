//! The referrals feature's answers as the API sends them (snake_case, amounts in cents).

export const apiReferralInfo = (overrides: Record<string, unknown> = {}) => ({
  code: 'AB2CD3EF',
  type: 'individual',
  link: 'http://127.0.0.1:8080/sign-up?referred=true&code=AB2CD3EF',
  referrer_reward: 500,
  friend_reward: 500,
  monthly_cap: 10,
  invited: 3,
  signed_up: 1,
  rewarded: 0,
  earned: 0,
  ...overrides,
});

export const apiInvitation = (overrides: Record<string, unknown> = {}) => ({
  id: '0192f0aa-0000-7000-8000-000000000001',
  channel: 'email',
  sent_to: 'friend@example.com',
  name: 'Ann',
  status: 'invited',
  created_at: '2026-11-20T10:00:00Z',
  last_sent_at: '2026-11-20T10:00:00Z',
  sends: 1,
  resend_after: null,
  sends_left: 4,
  ...overrides,
});
