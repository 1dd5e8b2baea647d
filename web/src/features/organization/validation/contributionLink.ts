//! The contribution link form's rules: the recipient by e-mail (spec §5 Email) or by phone (spec §5
//! Phone number and Country code), the days the link lives (1 to 30) and the submissions it takes
//! (1 to 100), as the server checks them.
import { z } from 'zod';
import { countryCode, email, phoneNumber } from '../../../lib/validation/rules';

export const LINK_DAYS = { min: 1, max: 30, default: 7 } as const;
export const LINK_SUBMISSIONS = { min: 1, max: 100, default: 10 } as const;
export const DAYS_MESSAGE = `Enter a whole number of days from ${LINK_DAYS.min} to ${LINK_DAYS.max}`;
export const SUBMISSIONS_MESSAGE = `Enter a whole number from ${LINK_SUBMISSIONS.min} to ${LINK_SUBMISSIONS.max}`;

const wholeNumber = (min: number, max: number, message: string) =>
  z.string().trim().regex(/^\d+$/, message).refine((v) => Number(v) >= min && Number(v) <= max, message);

export const contributionLinkSchema = z
  .object({
    channel: z.enum(['email', 'sms']),
    email: z.string(),
    countryCode: z.string(),
    phoneNumber: z.string(),
    expiresInDays: wholeNumber(LINK_DAYS.min, LINK_DAYS.max, DAYS_MESSAGE),
    maxSubmissions: wholeNumber(LINK_SUBMISSIONS.min, LINK_SUBMISSIONS.max, SUBMISSIONS_MESSAGE),
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

export type ContributionLinkValues = z.infer<typeof contributionLinkSchema>;
