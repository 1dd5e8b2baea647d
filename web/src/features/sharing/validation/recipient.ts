//! A recipient as typed on /who-you-want-to-share: by e-mail, an address (spec §5 Email); by
//! phone, a country code and a number (spec §5 Country code, Phone number). Only the chosen
//! channel's fields are checked: the other one is not on screen.
import { z } from 'zod';
import { countryCode, email, phoneNumber } from '../../../lib/validation/rules';

export const CHANNELS = ['email', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export const recipientSchema = z
  .object({
    channel: z.enum(CHANNELS),
    email: z.string(),
    countryCode: z.string(),
    phoneNumber: z.string(),
  })
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

export type RecipientValues = z.infer<typeof recipientSchema>;
