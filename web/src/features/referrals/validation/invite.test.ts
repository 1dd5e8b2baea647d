// spec §5 Email, Phone number, Country code, and the optional name's lengths.
import { describe, expect, it } from 'vitest';
import { emailInviteSchema, isInviteType, smsInviteSchema } from './invite';

const messageOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field)?.message;

describe('inviting a friend', () => {
  it('takes only sms and email', () => {
    expect(isInviteType('sms')).toBe(true);
    expect(isInviteType('email')).toBe(true);
    expect(isInviteType('whatsapp')).toBe(false);
    expect(isInviteType(undefined)).toBe(false);
  });

  it('needs a valid e-mail address (spec §5 Email)', () => {
    expect(messageOf(emailInviteSchema.safeParse({ name: '', email: '' }), 'email')).toBe('This field is required');
    expect(messageOf(emailInviteSchema.safeParse({ name: '', email: 'friend@' }), 'email')).toBe('Please enter a valid email address');
    expect(messageOf(emailInviteSchema.safeParse({ name: '', email: `${'a'.repeat(140)}@example.com` }), 'email')).toBe('Maximum 150 characters');
    expect(emailInviteSchema.safeParse({ name: '', email: 'friend@example.com' }).success).toBe(true);
  });

  it('takes no name, or one of 2 to 150 characters', () => {
    expect(messageOf(emailInviteSchema.safeParse({ name: 'A', email: 'friend@example.com' }), 'name')).toBe('Minimum 2 characters');
    expect(messageOf(emailInviteSchema.safeParse({ name: 'A'.repeat(151), email: 'friend@example.com' }), 'name')).toBe('Maximum 150 characters');
    expect(emailInviteSchema.parse({ name: '  Ann ', email: 'friend@example.com' }).name).toBe('Ann');
    expect(emailInviteSchema.parse({ name: '   ', email: 'friend@example.com' }).name).toBe('');
  });

  it('needs a known country code and 9 to 11 digits (spec §5 Phone number, Country code)', () => {
    const sms = (countryCode: string, phoneNumber: string) => smsInviteSchema.safeParse({ name: '', countryCode, phoneNumber });
    expect(messageOf(sms('+1', ''), 'phoneNumber')).toBe('This field is required');
    expect(messageOf(sms('+1', '12345678'), 'phoneNumber')).toBe('Minimum 9 digits');
    expect(messageOf(sms('+1', '123456789012'), 'phoneNumber')).toBe('Maximum 11 digits');
    expect(messageOf(sms('+999999', '5550100123'), 'countryCode')).toBe('Invalid country code');
    expect(sms('+1', '5550100123').success).toBe(true);
  });
});
