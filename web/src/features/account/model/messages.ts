//! The account screens' own messages; the spec gives none of them (decisions of the account screens).

export const CHANGED = {
  names: 'Your name was changed.',
  username: 'Your username was changed.',
  email: 'Your e-mail was changed.',
  phone: 'Your phone number was changed.',
  address: 'Your address was changed.',
  password: 'Your password was changed.',
} as const;

export const NOT_CHANGED = 'Your details were not changed. Please try again.';
export const METHOD_NOT_CHANGED = 'The communication method was not changed.';
export const CODE_RESENT = 'A new code was sent.';
export const METHOD_CHANGED = { email: 'Codes will be sent by e-mail.', sms: 'Codes will be sent by SMS.' } as const;
