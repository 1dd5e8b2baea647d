//! The contact-us form's rules: Name and Email as spec §5 (the shared rules), the subject as spec
//! §5 Short text (3 to 30) and required, the message required and at most 2000 characters.
import { z } from 'zod';
import { email, MESSAGES, name, shortText } from '../../../lib/validation/rules';

export const CONTACT_MESSAGES = {
  required: MESSAGES.required,
  // Not given by the spec (/tmp/pay/decisions-info.md).
  maxMessage: 'Maximum 2000 characters',
} as const;

export const MESSAGE_MAX = 2000;

export const contactSchema = z.object({
  name,
  email,
  subject: z.string().trim().min(1, CONTACT_MESSAGES.required).pipe(shortText),
  message: z.string().trim().min(1, CONTACT_MESSAGES.required).max(MESSAGE_MAX, CONTACT_MESSAGES.maxMessage),
});

export type ContactValues = z.infer<typeof contactSchema>;
