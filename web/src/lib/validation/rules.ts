//! The rules of spec §5, with its messages word for word, shared by every form.
import { z } from 'zod';
import { KNOWN_DIAL_CODES } from '../countries/countries';
import { MESSAGES } from './messages';

export { MESSAGES };

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const required = () => z.string().trim().min(1, MESSAGES.required);

export const email = required().max(150, MESSAGES.maxEmail).regex(EMAIL, MESSAGES.email);

export const username = required()
  .regex(/^[A-Za-z0-9@+\-._]*$/, MESSAGES.username)
  .min(2, MESSAGES.min2)
  .max(20, MESSAGES.maxUsername);

export const name = required().min(2, MESSAGES.min2).max(150, MESSAGES.maxName);

export const shortText = z.string().trim().min(3, 'Minimum 3 characters').max(30, 'Maximum 30 characters');

export const password = z
  .string()
  .min(1, MESSAGES.required)
  .min(8, MESSAGES.min8)
  .max(32, MESSAGES.max32)
  .refine((v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && /[#?!@$%^&*-]/.test(v), MESSAGES.password);

/** The password field shown with only the required rule (log in). */
export const requiredPassword = z.string().min(1, MESSAGES.required);

export const countryCode = z
  .string()
  .regex(/^\+\d{1,5}$/, MESSAGES.countryCode)
  .refine((v) => KNOWN_DIAL_CODES.has(v), MESSAGES.countryCode);

export const phoneNumber = required()
  .regex(/^\d*$/, MESSAGES.phoneDigits)
  .min(9, MESSAGES.phoneMin)
  .max(11, MESSAGES.phoneMax);

export const confirmationCode = z.string().regex(/^\d{6}$/, MESSAGES.required);

// --- account ---
/** Not given by the spec: a confirmation that differs from the new password (decisions of the account screens). */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
// --- end account ---

// --- recovery: a new password typed twice (forgot password) ---
/** The new password with the §5 password rules, and its confirmation. */
export const newPasswordPair = z
  .object({ newPassword: password, confirmPassword: requiredPassword })
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_DO_NOT_MATCH, path: ['confirmPassword'] });
// --- end recovery ---
