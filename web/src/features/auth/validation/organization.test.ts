// The organization forms' rules: the organization name (spec §5 Short text, required) and the
// join form's optional names (spec §5 Name when given).
import { describe, expect, it } from 'vitest';
import { individualSignUpSchema, joinSchema, organizationSignUpSchema } from './organization';

const valid = { username: 'ann', email: 'ann@example.com', countryCode: '+1', phoneNumber: '4155550100', password: 'Secret12#' };

const messageOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field)?.message;

describe('organization sign-up', () => {
  it('asks for an organization name of 3 to 30 characters (spec §5 Short text)', () => {
    expect(messageOf(organizationSignUpSchema.safeParse({ ...valid, organizationName: '' }), 'organizationName')).toBe(
      'This field is required',
    );
    expect(messageOf(organizationSignUpSchema.safeParse({ ...valid, organizationName: '  ' }), 'organizationName')).toBe(
      'This field is required',
    );
    expect(messageOf(organizationSignUpSchema.safeParse({ ...valid, organizationName: 'Ab' }), 'organizationName')).toBe(
      'Minimum 3 characters',
    );
    expect(messageOf(organizationSignUpSchema.safeParse({ ...valid, organizationName: 'a'.repeat(31) }), 'organizationName')).toBe(
      'Maximum 30 characters',
    );
    expect(organizationSignUpSchema.safeParse({ ...valid, organizationName: 'Abc' }).success).toBe(true);
    expect(organizationSignUpSchema.safeParse({ ...valid, organizationName: 'a'.repeat(30) }).success).toBe(true);
  });

  it('sends the name trimmed', () => {
    expect(organizationSignUpSchema.parse({ ...valid, organizationName: '  Acme Ltd  ' }).organizationName).toBe('Acme Ltd');
  });

  it('an individual is not asked for one', () => {
    expect(individualSignUpSchema.safeParse({ ...valid, organizationName: '' }).success).toBe(true);
  });
});

describe('joining an organization', () => {
  it('takes empty first and last names', () => {
    expect(joinSchema.safeParse({ ...valid, firstName: '', lastName: '' }).success).toBe(true);
  });

  it('checks names that are given (spec §5 Name)', () => {
    const short = joinSchema.safeParse({ ...valid, firstName: 'A', lastName: 'b'.repeat(151) });
    expect(messageOf(short, 'firstName')).toBe('Minimum 2 characters');
    expect(messageOf(short, 'lastName')).toBe('Maximum 150 characters');
  });

  it('keeps the sign-up rules for the rest', () => {
    const result = joinSchema.safeParse({ ...valid, username: 'a', password: 'short', firstName: '', lastName: '' });
    expect(messageOf(result, 'username')).toBe('Minimum 2 characters');
    expect(messageOf(result, 'password')).toBe('Minimum 8 characters');
  });
});
