//! The messages of spec §5, word for word: a module without zod, so a screen that only shows
//! them (log in) does not load the validation library.
export const MESSAGES = {
  required: 'This field is required',
  email: 'Please enter a valid email address',
  username: 'Please enter a valid username',
  min2: 'Minimum 2 characters',
  min8: 'Minimum 8 characters',
  max32: 'Maximum 32 characters',
  password: 'Wrong Password. Please try again',
  countryCode: 'Invalid country code',
  // Not given by the spec (docs/web.md).
  maxEmail: 'Maximum 150 characters',
  maxUsername: 'Maximum 20 characters',
  maxName: 'Maximum 150 characters',
  phoneDigits: 'Only digits allowed',
  phoneMin: 'Minimum 9 digits',
  phoneMax: 'Maximum 11 digits',
} as const;
