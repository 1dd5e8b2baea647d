import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { countryCode, email, name, password, phoneNumber, requiredPassword, username } from './rules';

function message(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('spec §5 validation rules', () => {
  it('Email', () => {
    expect(message(email, '')).toBe('This field is required');
    expect(message(email, 'nope')).toBe('Please enter a valid email address');
    expect(message(email, `${'a'.repeat(140)}@example.com`)).toBe('Maximum 150 characters');
    expect(message(email, 'ann@example.com')).toBeUndefined();
  });

  it('Username', () => {
    expect(message(username, '')).toBe('This field is required');
    expect(message(username, 'a')).toBe('Minimum 2 characters');
    expect(message(username, 'a'.repeat(21))).toBe('Maximum 20 characters');
    expect(message(username, 'bad name')).toBe('Please enter a valid username');
    expect(message(username, 'ann.o+k@x_-1')).toBeUndefined();
  });

  it('Name', () => {
    expect(message(name, '')).toBe('This field is required');
    expect(message(name, 'A')).toBe('Minimum 2 characters');
    expect(message(name, 'Ann')).toBeUndefined();
  });

  it('Password', () => {
    expect(message(password, '')).toBe('This field is required');
    expect(message(password, 'Ab1!')).toBe('Minimum 8 characters');
    expect(message(password, `Ab1!${'a'.repeat(29)}`)).toBe('Maximum 32 characters');
    expect(message(password, 'abcdefgh1!')).toBe('Wrong Password. Please try again');
    expect(message(password, 'Abcdefgh1')).toBe('Wrong Password. Please try again');
    expect(message(password, 'Abcdefg1#')).toBeUndefined();
    expect(message(requiredPassword, '')).toBe('This field is required');
    expect(message(requiredPassword, 'x')).toBeUndefined();
  });

  it('Country code', () => {
    expect(message(countryCode, '1')).toBe('Invalid country code');
    expect(message(countryCode, '+123456')).toBe('Invalid country code');
    expect(message(countryCode, '+999')).toBe('Invalid country code');
    expect(message(countryCode, '+44')).toBeUndefined();
  });

  it('Phone number', () => {
    expect(message(phoneNumber, '')).toBe('This field is required');
    expect(message(phoneNumber, '12345678')).toBe('Minimum 9 digits');
    expect(message(phoneNumber, '123456789012')).toBe('Maximum 11 digits');
    expect(message(phoneNumber, '12345e789')).toBe('Only digits allowed');
    expect(message(phoneNumber, '4155550100')).toBeUndefined();
  });
});
