import { describe, expect, it } from 'vitest';
import { logInSchema, signUpSchema } from './schemas';

describe('sign-up form', () => {
  it('reports every field with the spec §5 messages', () => {
    const result = signUpSchema.safeParse({ username: 'a', email: 'x', countryCode: '+999', phoneNumber: '1', password: 'short' });
    expect(result.success).toBe(false);
    // The form shows each field's first message.
    const messages: Record<string, string> = {};
    for (const issue of result.error?.issues ?? []) messages[String(issue.path[0])] ??= issue.message;
    expect(messages).toEqual({
      username: 'Minimum 2 characters',
      email: 'Please enter a valid email address',
      countryCode: 'Invalid country code',
      phoneNumber: 'Minimum 9 digits',
      password: 'Minimum 8 characters',
    });
  });

  it('accepts a valid sign-up', () => {
    expect(
      signUpSchema.safeParse({ username: 'ann', email: 'ann@example.com', countryCode: '+1', phoneNumber: '4155550100', password: 'Secret12#' })
        .success,
    ).toBe(true);
  });

  it('log-in asks only that the password is given', () => {
    expect(logInSchema.safeParse({ username: 'ann', password: 'x' }).success).toBe(true);
    expect(logInSchema.safeParse({ username: 'ann', password: '' }).error?.issues[0]?.message).toBe('This field is required');
  });
});
