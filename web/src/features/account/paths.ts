//! The account screens' routes (spec §2 "Account") and where they lead back to.
export const ACCOUNT_INFO = '/account-info';
export const CHANGE_ADDRESS = '/change-address';
export const CHANGE_PASSWORD = '/change-password';
export const DATE_AND_TIME = '/date-and-time';
export const EVENTS_HISTORY = '/events-history';
export const SETTINGS = '/dashboard/settings';
