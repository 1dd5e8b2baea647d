//! The access table of spec §2, as data, for every path of the route table, and the one guard
//! decision made from it. The router mounts only the screens that exist; this table knows them all.
import { matchPath } from 'react-router';

export type Access = 'public-only' | 'signed-in' | 'open';

export interface RouteAccess {
  path: string;
  access: Access;
}

const publicOnly = [
  '/',
  '/sign-up',
  '/sign-up-organization',
  '/log-in',
  '/join-organization/:code',
  '/recovery/:type',
  '/organization-sharing/folder/:folderId',
  '/organization-sharing/verification/:folderId',
  '/organization-sharing/evidence/:folderId/:stepId',
];

const signedIn = [
  '/payment-details-setup',
  '/walkthrough',
  '/dashboard',
  '/dashboard/home',
  '/dashboard/my-files',
  '/dashboard/organization-captures',
  '/dashboard/settings',
  '/dashboard/guide',
  '/evidence',
  '/checkout',
  '/folder-view',
  '/delete-files/:folderId',
  '/type-of-copy/:folderId',
  '/who-you-want-to-share/:folderId',
  '/share-files/:folderId',
  '/extend-storage-date/:folderId',
  '/proof-metadata-view/:folderId',
  '/folder-map-view',
  '/folders-map-view',
  '/extend-storage-success',
  '/payment-success',
  '/share-success',
  '/chats',
  '/chats/:sharingId',
  '/payment-methods',
  '/payment-methods/add',
  '/stored-account',
  '/wallet-congratulations',
  '/organization-participants',
  '/vehicle-rental',
  '/vehicle-rental/capture',
  '/hotel-rental',
  '/hotel-rental/capture',
  '/transaction-info',
  '/account-info',
  '/change-address',
  '/change-password',
  '/date-and-time',
  '/events-history',
  '/refer-a-friend',
  '/referral-code',
  '/refer/:type',
  '/about-refer-program',
  '/organization-capture-templates/:viewMode',
  '/organization-folder/:folderId',
  '/organization-evidence/:folderId/:stepId',
  '/template-details/:templateId',
  '/pricing-models',
  '/pay-as-you-go',
  '/cost-estimator-tool',
  '/deleting-of-evidentia-account',
  '/deleting-my-account-reasons',
  '/deleting-my-account-confirm',
];

const open = [
  '/get-access-email/:folderToken/email/:emailToken',
  '/get-access-confirm',
  '/unauth-shared-folder',
  '/auth-shared-folder',
  // Public verification of an issued copy (not in spec §2: a route of ours, open like the shared views).
  '/verify',
  '/verify/:transactionNumber',
  '/futuregram/view/:token',
  '/futuregram/executor/:action/:token',
  '/legal',
  '/legal/terms',
  '/legal/policy',
  '/faq',
  '/tech-support',
  '/contact-us',
];

export const ACCESS_TABLE: RouteAccess[] = [
  ...publicOnly.map((path) => ({ path, access: 'public-only' as const })),
  ...signedIn.map((path) => ({ path, access: 'signed-in' as const })),
  ...open.map((path) => ({ path, access: 'open' as const })),
];

export const HOME = '/dashboard/home';
export const START = '/';

/** Where a signed-in-only route remembers the visitor came from. */
export interface FromState {
  from: string;
}

export type Decision =
  | { kind: 'render' }
  | { kind: 'render-after-logout' }
  | { kind: 'redirect'; to: string; state?: FromState };

/**
 * Where a page that signs the user in goes next: the origin remembered in the navigation state
 * when it is a page of the app a signed-in user may see, else `fallback` (home).
 */
export function returnPath(state: unknown, fallback: string = HOME): string {
  if (!state || typeof state !== 'object' || !('from' in state) || typeof state.from !== 'string') return fallback;
  const from = state.from;
  // Only a path of this app (not '//host', which the browser reads as another origin).
  if (!from.startsWith('/') || from.startsWith('//')) return fallback;
  const access = accessOf(new URL(from, 'http://app.invalid').pathname);
  return access === 'signed-in' || access === 'open' ? from : fallback;
}

export function accessOf(pathname: string): Access | undefined {
  return ACCESS_TABLE.find((route) => matchPath({ path: route.path, end: true }, pathname))?.access;
}

/**
 * What the guard does for a visit to `pathname?search` by a signed-in or anonymous user.
 * `signedInHere` is true when the user signed in on this very page (log in, sign up, recovery):
 * that page then chooses where to go next (the remembered origin, the walkthrough), and the guard
 * must not race it with its own redirect home.
 */
export function decide(pathname: string, search: string, signedIn: boolean, signedInHere = false): Decision {
  const access = accessOf(pathname);
  if (access === undefined) return { kind: 'redirect', to: START };
  if (access === 'public-only' && signedIn && !signedInHere) {
    if (pathname === '/sign-up' && new URLSearchParams(search).get('referred') === 'true') {
      return { kind: 'render-after-logout' };
    }
    return { kind: 'redirect', to: HOME };
  }
  if (access === 'signed-in' && !signedIn) {
    return { kind: 'redirect', to: START, state: { from: `${pathname}${search}` } };
  }
  return { kind: 'render' };
}
