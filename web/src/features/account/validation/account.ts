//! The account forms' rules (spec §5), built from the shared rules and their messages word for word.
import { z } from 'zod';
import {
  countryCode,
  email,
  name,
  password,
  PASSWORDS_DO_NOT_MATCH,
  phoneNumber,
  requiredPassword,
  MESSAGES,
  username,
} from '../../../lib/validation/rules';

/** First and last name: the Name rule (required, 2 to 150). */
export const namesSchema = z.object({ firstName: name, lastName: name });
export type NamesValues = z.infer<typeof namesSchema>;

export const usernameSchema = z.object({ newUsername: username });
export type UsernameValues = z.infer<typeof usernameSchema>;

export const emailSchema = z.object({ newEmail: email });
export type EmailValues = z.infer<typeof emailSchema>;

export const phoneSchema = z.object({ countryCode, phoneNumber });
export type PhoneValues = z.infer<typeof phoneSchema>;

/** The current password before a sensitive change: the password field shown with only the required rule. */
export const currentPasswordSchema = z.object({ password: requiredPassword });
export type CurrentPasswordValues = z.infer<typeof currentPasswordSchema>;

/** The current password (required only), the new one (every §5 password rule) and its confirmation. */
export const changePasswordSchema = z
  .object({
    currentPassword: requiredPassword,
    newPassword: password,
    confirmPassword: z.string().min(1, MESSAGES.required),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  });
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>;
