//! The invite form's rules: by e-mail, an e-mail address (spec §5 Email); by SMS, a country code
//! and a phone number (spec §5 Phone number: digits only, 9 to 11); a role, admin or member.
import { z } from 'zod';
import { INVITABLE_ROLES } from '../../../lib/organization/roles';
import { countryCode, email, phoneNumber } from '../../../lib/validation/rules';

export const CHANNELS = ['email', 'sms'] as const;

export const inviteSchema = z
  .object({
    channel: z.enum(CHANNELS),
    email: z.string(),
    countryCode: z.string(),
    phoneNumber: z.string(),
    role: z.enum(INVITABLE_ROLES),
  })
  // Only the chosen channel's fields are checked: the other one is not on screen.
  .superRefine((values, ctx) => {
    const check = (rule: z.ZodType<string>, value: string, field: 'email' | 'countryCode' | 'phoneNumber') => {
      const checked = rule.safeParse(value);
      if (!checked.success) ctx.addIssue({ code: 'custom', path: [field], message: checked.error.issues[0]?.message ?? '' });
    };
    if (values.channel === 'email') {
      check(email, values.email, 'email');
    } else {
      check(countryCode, values.countryCode, 'countryCode');
      check(phoneNumber, values.phoneNumber, 'phoneNumber');
    }
  });

export type InviteValues = z.infer<typeof inviteSchema>;
