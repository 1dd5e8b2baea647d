//! The organization forms' rules: sign up as an organization (the sign-up rules plus the
//! organization name, spec §5 Short text, required) and joining one with an invite (the sign-up
//! rules plus optional first and last names, spec §5 Name when given).
import { z } from 'zod';
import { countryCode, email, MESSAGES, name, password, phoneNumber, shortText, username } from '../../../lib/validation/rules';
import { signUpSchema } from './schemas';

export const organizationName = z.string().trim().min(1, MESSAGES.required).pipe(shortText);

/** The one sign-up form of both kinds: an individual's organization name is not asked and stays ''. */
export const organizationSignUpSchema = signUpSchema.extend({ organizationName });
export type SignUpFormValues = z.infer<typeof organizationSignUpSchema>;
export const individualSignUpSchema = signUpSchema.extend({ organizationName: z.string() });

/** Empty, or a spec §5 Name (2 to 150 characters). */
const optionalName = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (value === '') return;
    const checked = name.safeParse(value);
    if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? MESSAGES.required });
  });

export const joinSchema = z.object({
  username,
  email,
  countryCode,
  phoneNumber,
  password,
  firstName: optionalName,
  lastName: optionalName,
});

export type JoinValues = z.infer<typeof joinSchema>;
