// The invite form's rules: only the chosen channel's fields are checked, with the spec §5
// messages; the role is admin or member.
import { describe, expect, it } from 'vitest';
import { inviteSchema } from './invite';

const base = { channel: 'email', email: '', countryCode: '+1', phoneNumber: '', role: 'member' } as const;
const messages = (value: unknown) => {
  const out: Record<string, string> = {};
  for (const issue of inviteSchema.safeParse(value).error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
};

describe('invite by e-mail', () => {
  it('needs a valid e-mail and ignores the phone', () => {
    expect(messages(base)).toEqual({ email: 'This field is required' });
    expect(messages({ ...base, email: 'bob@' })).toEqual({ email: 'Please enter a valid email address' });
    expect(messages({ ...base, email: 'bob@example.com' })).toEqual({});
  });
});

describe('invite by SMS', () => {
  const sms = { ...base, channel: 'sms' } as const;

  it('needs 9 to 11 digits and ignores the e-mail (spec §5 Phone number)', () => {
    expect(messages(sms)).toEqual({ phoneNumber: 'This field is required' });
    expect(messages({ ...sms, phoneNumber: '12345678' })).toEqual({ phoneNumber: 'Minimum 9 digits' });
    expect(messages({ ...sms, phoneNumber: '123456789012' })).toEqual({ phoneNumber: 'Maximum 11 digits' });
    expect(messages({ ...sms, phoneNumber: '12345678a' })).toEqual({ phoneNumber: 'Only digits allowed' });
    expect(messages({ ...sms, phoneNumber: '123456789' })).toEqual({});
    expect(messages({ ...sms, phoneNumber: '12345678901' })).toEqual({});
  });

  it('needs a known country code', () => {
    expect(messages({ ...sms, countryCode: '+999', phoneNumber: '123456789' })).toEqual({ countryCode: 'Invalid country code' });
  });
});

describe('the role', () => {
  it('is admin or member, never owner', () => {
    expect(inviteSchema.safeParse({ ...base, email: 'bob@example.com', role: 'admin' }).success).toBe(true);
    expect(inviteSchema.safeParse({ ...base, email: 'bob@example.com', role: 'owner' }).success).toBe(false);
  });
});
