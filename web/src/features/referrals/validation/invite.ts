//! A friend to invite (spec §5): by e-mail, the address (Email: required, the pattern, at most
//! 150); by SMS, a country code from the known list and 9 to 11 digits. The name is optional; when
//! typed it follows the Name rule's lengths (2 to 150).
import { z } from 'zod';
import { countryCode, email, MESSAGES, phoneNumber } from '../../../lib/validation/rules';

export const INVITE_TYPES = ['email', 'sms'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

export function isInviteType(value: string | undefined): value is InviteType {
  return (INVITE_TYPES as readonly string[]).includes(value ?? '');
}

const optionalName = z
  .string()
  .trim()
  .refine((v) => v === '' || v.length >= 2, MESSAGES.min2)
  .refine((v) => v.length <= 150, MESSAGES.maxName);

export const emailInviteSchema = z.object({ name: optionalName, email });

export const smsInviteSchema = z.object({ name: optionalName, countryCode, phoneNumber });

export type EmailInviteValues = z.infer<typeof emailInviteSchema>;
export type SmsInviteValues = z.infer<typeof smsInviteSchema>;
