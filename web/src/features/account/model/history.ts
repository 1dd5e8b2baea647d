//! The events history's rules as plain functions: the query of one page with its filters, the
//! readable names of the logged actions, the date-range check and a short device name from a
//! browser's user agent.

/** Events per page (the contract's default page size). */
export const HISTORY_PAGE_SIZE = 20;

/**
 * The actions the history logs (contract "History"), with their one name: the filter offers it and
 * a row of that action shows it, so the two always read the same.
 */
export const ACTION_LABELS = {
  sign_up: 'Account created',
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  code_sent: 'Confirmation code sent',
  password_verified: 'Password confirmed',
  password_reset: 'Password reset',
  password_changed: 'Password changed',
  names_changed: 'Name changed',
  username_changed: 'Username changed',
  email_changed: 'E-mail changed',
  phone_changed: 'Phone number changed',
  address_changed: 'Address changed',
  communication_method_changed: 'Communication method changed',
  account_deleted: 'Account deleted',
  account_recovered: 'Account recovered',
  organization_created: 'Organization created',
  participant_invited: 'Participant invited',
  invite_revoked: 'Invite revoked',
  organization_joined: 'Organization joined',
  participant_removed: 'Participant removed',
  participant_role_changed: 'Participant role changed',
} as const;

export type HistoryAction = keyof typeof ACTION_LABELS;

export const HISTORY_ACTIONS = Object.keys(ACTION_LABELS) as HistoryAction[];

/** The filters of the list; '' means any. Dates are 'YYYY-MM-DD', both ends included. */
export interface HistoryFilters {
  action: HistoryAction | '';
  dateFrom: string;
  dateTo: string;
}

export const NO_FILTERS: HistoryFilters = { action: '', dateFrom: '', dateTo: '' };

/** The query parameters of one page: the filters that are set, nothing for the others. */
export function historyParams(filters: HistoryFilters, page: number): Record<string, string | number> {
  const params: Record<string, string | number> = { page, page_size: HISTORY_PAGE_SIZE };
  if (filters.action) params.action = filters.action;
  if (filters.dateFrom) params.date_from = filters.dateFrom;
  if (filters.dateTo) params.date_to = filters.dateTo;
  return params;
}

export const RANGE_MESSAGE = 'The end date cannot be before the start date.';

/** The range's error, if its end comes before its start ('YYYY-MM-DD' compares as text). */
export function rangeError(filters: HistoryFilters): string | undefined {
  return filters.dateFrom && filters.dateTo && filters.dateTo < filters.dateFrom ? RANGE_MESSAGE : undefined;
}

export const UNKNOWN_DEVICE = 'Unknown device';
const RAW_MAX = 40;

const BROWSERS: [RegExp, string][] = [
  [/\bEdgi?A?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * 'Chrome on Android', 'Safari on iPhone', 'Firefox on Windows'; only one of the two when the
 * other is not recognised; a client that is no browser (an API tool) shows its own agent, cut at
 * 40 characters; nothing at all is 'Unknown device'.
 */
export function describeDevice(userAgent: string | null | undefined): string {
  const agent = (userAgent ?? '').trim();
  if (!agent) return UNKNOWN_DEVICE;
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system) as string;
  return agent.length > RAW_MAX ? `${agent.slice(0, RAW_MAX)}...` : agent;
}
