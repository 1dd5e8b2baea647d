import { describe, expect, it } from 'vitest';
import { snackbarBottomOffset } from './snackbarOffset';

describe('snackbar bottom offset (spec §9)', () => {
  it('is 125 on the referral code route', () => expect(snackbarBottomOffset('/referral-code', '')).toBe(125));
  it.each(['/extend-storage-date/abc', '/checkout'])('is 113 on %s', (path) => expect(snackbarBottomOffset(path, '')).toBe(113));
  it.each([
    '/dashboard/home',
    '/dashboard/my-files',
    '/dashboard/settings',
    '/dashboard/organization-captures',
    '/dashboard/guide',
    '/evidence',
    '/proof-metadata-view/f1',
    '/payment-details-setup',
    '/recovery/password',
    '/refer/email',
    '/refer/sms',
    '/transaction-info',
    '/get-access-confirm',
    '/deleting-my-account-confirm',
    '/log-in',
  ])('is 73 on %s', (path) => expect(snackbarBottomOffset(path, '')).toBe(73));
  it('is 73 when set-up-rooms or add-payment is true', () => {
    expect(snackbarBottomOffset('/payment-methods', '?add-payment=true')).toBe(73);
    expect(snackbarBottomOffset('/hotel-rental', '?x=1&set-up-rooms=true')).toBe(73);
    expect(snackbarBottomOffset('/payment-methods', '?add-payment=false')).toBe(25);
  });
  it('is 25 elsewhere', () => {
    expect(snackbarBottomOffset('/', '')).toBe(25);
    expect(snackbarBottomOffset('/sign-up', '')).toBe(25);
  });
});
