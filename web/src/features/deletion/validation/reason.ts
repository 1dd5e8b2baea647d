//! The reasons form: a reason is chosen; 'Other' needs 3 to 500 characters of details (contract
//! "Deletion": the server's message for both bounds is 'Please tell us why.').
import { z } from 'zod';
import { OTHER_REASON } from '../model/choice';

export const DETAILS_MESSAGE = 'Please tell us why.';
export const DETAILS_MIN = 3;
export const DETAILS_MAX = 500;

export const reasonSchema = z.object({ reasonId: z.string().min(1), details: z.string() }).superRefine((value, ctx) => {
  if (value.reasonId !== OTHER_REASON) return;
  const length = value.details.trim().length;
  if (length < DETAILS_MIN || length > DETAILS_MAX) ctx.addIssue({ code: 'custom', message: DETAILS_MESSAGE, path: ['details'] });
});

export type ReasonValues = z.infer<typeof reasonSchema>;
