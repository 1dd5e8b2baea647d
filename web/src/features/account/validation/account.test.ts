// The account forms' rules with the spec §5 messages word for word.
import { describe, expect, it } from 'vitest';
import { changePasswordSchema, currentPasswordSchema, emailSchema, namesSchema, phoneSchema, usernameSchema } from './account';

/** The first message per field, or {} when valid. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0]);
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

describe('names (spec §5 Name: required, 2 to 150)', () => {
  it('requires both, 2 to 150 characters', () => {
    expect(messages(namesSchema.safeParse({ firstName: '', lastName: '  ' }))).toEqual({
      firstName: 'This field is required',
      lastName: 'This field is required',
    });
    expect(messages(namesSchema.safeParse({ firstName: 'A', lastName: 'b'.repeat(151) }))).toEqual({
      firstName: 'Minimum 2 characters',
      lastName: 'Maximum 150 characters',
    });
    expect(messages(namesSchema.safeParse({ firstName: 'Al', lastName: 'b'.repeat(150) }))).toEqual({});
  });
});

describe('username (spec §5)', () => {
  it('keeps the characters, minimum and maximum', () => {
    expect(messages(usernameSchema.safeParse({ newUsername: '' }))).toEqual({ newUsername: 'This field is required' });
    expect(messages(usernameSchema.safeParse({ newUsername: 'ann lee' }))).toEqual({ newUsername: 'Please enter a valid username' });
    expect(messages(usernameSchema.safeParse({ newUsername: 'a' }))).toEqual({ newUsername: 'Minimum 2 characters' });
    expect(messages(usernameSchema.safeParse({ newUsername: 'a'.repeat(21) }))).toEqual({ newUsername: 'Maximum 20 characters' });
    expect(messages(usernameSchema.safeParse({ newUsername: 'ann.lee+1@x_y-z' }))).toEqual({});
  });
});

describe('e-mail (spec §5)', () => {
  it('requires a valid address of at most 150', () => {
    expect(messages(emailSchema.safeParse({ newEmail: '' }))).toEqual({ newEmail: 'This field is required' });
    expect(messages(emailSchema.safeParse({ newEmail: 'ann@' }))).toEqual({ newEmail: 'Please enter a valid email address' });
    expect(messages(emailSchema.safeParse({ newEmail: `${'a'.repeat(140)}@example.com` }))).toEqual({ newEmail: 'Maximum 150 characters' });
    expect(messages(emailSchema.safeParse({ newEmail: 'ann@example.com' }))).toEqual({});
  });
});

describe('phone (spec §5 Phone number, Country code)', () => {
  it('needs a known code and 9 to 11 digits', () => {
    expect(messages(phoneSchema.safeParse({ countryCode: '+999999', phoneNumber: '' }))).toEqual({
      countryCode: 'Invalid country code',
      phoneNumber: 'This field is required',
    });
    expect(messages(phoneSchema.safeParse({ countryCode: '+1', phoneNumber: '55512345' }))).toEqual({ phoneNumber: 'Minimum 9 digits' });
    expect(messages(phoneSchema.safeParse({ countryCode: '+1', phoneNumber: '555123456789' }))).toEqual({
      phoneNumber: 'Maximum 11 digits',
    });
    expect(messages(phoneSchema.safeParse({ countryCode: '+44', phoneNumber: '7700900123' }))).toEqual({});
  });
});

describe('passwords (spec §5 Password)', () => {
  it('asks the current password with only the required rule', () => {
    expect(messages(currentPasswordSchema.safeParse({ password: '' }))).toEqual({ password: 'This field is required' });
    expect(messages(currentPasswordSchema.safeParse({ password: 'x' }))).toEqual({});
  });

  const change = (newPassword: string, confirmPassword = newPassword, currentPassword = 'old') =>
    messages(changePasswordSchema.safeParse({ currentPassword, newPassword, confirmPassword }));

  it('holds the new password to every rule with the spec messages', () => {
    expect(change('', '', '')).toEqual({
      currentPassword: 'This field is required',
      newPassword: 'This field is required',
      confirmPassword: 'This field is required',
    });
    expect(change('Ab1#')).toEqual({ newPassword: 'Minimum 8 characters' });
    expect(change(`Ab1#${'x'.repeat(29)}`)).toEqual({ newPassword: 'Maximum 32 characters' });
    expect(change('abcdefg1#')).toEqual({ newPassword: 'Wrong Password. Please try again' });
    expect(change('ABCDEFG1#')).toEqual({ newPassword: 'Wrong Password. Please try again' });
    expect(change('Abcdefgh#')).toEqual({ newPassword: 'Wrong Password. Please try again' });
    expect(change('Abcdefgh1')).toEqual({ newPassword: 'Wrong Password. Please try again' });
    expect(change('Abcdefg1#')).toEqual({});
    expect(change(`Ab1#${'x'.repeat(28)}`)).toEqual({});
  });

  it('says when the confirmation differs, even while the current password is missing', () => {
    expect(change('Abcdefg1#', 'Abcdefg1!')).toEqual({ confirmPassword: 'Passwords do not match' });
    expect(change('Abcdefg1#', 'Abcdefg1!', '')).toEqual({
      currentPassword: 'This field is required',
      confirmPassword: 'Passwords do not match',
    });
  });
});
