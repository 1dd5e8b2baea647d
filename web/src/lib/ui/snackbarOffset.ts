//! The snackbar's bottom offset by route (spec §9), so it sits above each screen's bottom bar (every
//! dashboard tab has one).
import { matchPath } from 'react-router';

const AT_73 = [
  '/dashboard/home',
  '/dashboard/my-files',
  '/dashboard/settings',
  '/dashboard/organization-captures',
  '/dashboard/guide',
  '/evidence',
  '/proof-metadata-view/:folderId',
  '/payment-details-setup',
  '/recovery/:type',
  '/refer/email',
  '/refer/sms',
  '/transaction-info',
  '/get-access-confirm',
  '/deleting-my-account-confirm',
  '/log-in',
];

const matches = (patterns: string[], pathname: string) =>
  patterns.some((path) => matchPath({ path, end: true }, pathname));

export function snackbarBottomOffset(pathname: string, search: string): number {
  if (pathname === '/referral-code') return 125;
  if (matches(['/extend-storage-date/:folderId', '/checkout'], pathname)) return 113;
  const query = new URLSearchParams(search);
  if (matches(AT_73, pathname) || query.get('set-up-rooms') === 'true' || query.get('add-payment') === 'true') return 73;
  return 25;
}
