//! The cards feature's routes.
export const PAYMENT_METHODS = '/payment-methods';
export const ADD_PAYMENT_METHOD = '/payment-methods/add';
export const PAYMENT_DETAILS_SETUP = '/payment-details-setup';
export const SETTINGS = '/dashboard/settings';
/** The query flag the add-card dialog keeps in the address while it is open (spec §2). */
export const ADD_PAYMENT_FLAG = 'add-payment';
