//! The sign-up and log-in forms' rules (spec §5).
import { z } from 'zod';
import { countryCode, email, MESSAGES, password, phoneNumber, requiredPassword, username } from '../../../lib/validation/rules';

export const signUpSchema = z.object({
  username,
  email,
  countryCode,
  phoneNumber,
  password,
});

export type SignUpValues = z.infer<typeof signUpSchema>;

export const logInSchema = z.object({
  username: z.string().trim().min(1, MESSAGES.required),
  password: requiredPassword,
});

export type LogInValues = z.infer<typeof logInSchema>;
