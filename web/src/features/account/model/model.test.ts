// The password token's reuse window and what a failed account call means for the screen.
import { describe, expect, it } from 'vitest';
import { classifyFailure } from './failures';
import { holdToken, PASSWORD_TOKEN_MARGIN_MS, usableToken } from './passwordToken';

describe('the password token (contract: valid 10 minutes, reusable)', () => {
  const now = 1_000_000;

  it('is reused until shortly before it runs out, then asked for again', () => {
    const held = holdToken({ passwordToken: 'pt1', expiresInSeconds: 600 }, now);
    expect(usableToken(held, now)).toBe('pt1');
    expect(usableToken(held, now + 600_000 - PASSWORD_TOKEN_MARGIN_MS - 1)).toBe('pt1');
    expect(usableToken(held, now + 600_000 - PASSWORD_TOKEN_MARGIN_MS)).toBeUndefined();
    expect(usableToken(null, now)).toBeUndefined();
  });

  it('follows the lifetime the server gives, or 10 minutes when it gives none', () => {
    expect(
      usableToken(holdToken({ passwordToken: 'pt', expiresInSeconds: 60 }, now), now + 60_000 - PASSWORD_TOKEN_MARGIN_MS),
    ).toBeUndefined();
    expect(usableToken(holdToken({ passwordToken: 'pt', expiresInSeconds: 0 }, now), now + 500_000)).toBe('pt');
  });
});

const failed = (status: number | string, errors: { message: string; code?: string; field?: string }[], extra: object = {}) => ({
  status,
  data: { errors },
  ...extra,
});

describe('a failed account call', () => {
  const fields = { new_username: 'newUsername', new_phone_number: 'phoneNumber' };

  it('was already reported when the server failed, JSON or not', () => {
    expect(classifyFailure(failed(500, [{ message: 'x' }]), fields, 'fallback')).toEqual({ kind: 'reported' });
    expect(classifyFailure({ status: 'PARSING_ERROR', originalStatus: 503, data: 'upstream', error: 'bad' }, fields, 'f')).toEqual({
      kind: 'reported',
    });
  });

  it('asks for the password again when the token is refused, before any other field', () => {
    const error = failed(400, [
      { message: 'A user with that username already exists.', field: 'new_username' },
      { message: 'Please confirm your password again.', field: 'password_token' },
    ]);
    expect(classifyFailure(error, fields, 'f')).toEqual({ kind: 'password-token', message: 'Please confirm your password again.' });
  });

  it("puts the form's fields under their names, an object's parts under the object's field", () => {
    expect(
      classifyFailure(failed(400, [{ message: 'A user with that username already exists.', field: 'new_username' }]), fields, 'f'),
    ).toEqual({
      kind: 'fields',
      fields: { newUsername: 'A user with that username already exists.' },
    });
    expect(classifyFailure(failed(400, [{ message: 'Minimum 9 digits', field: 'new_phone_number.national_number' }]), fields, 'f')).toEqual(
      {
        kind: 'fields',
        fields: { phoneNumber: 'Minimum 9 digits' },
      },
    );
  });

  it('shows the first message of anything else, or the fallback', () => {
    expect(classifyFailure(failed(400, [{ message: 'Bad thing', field: 'other' }]), fields, 'f')).toEqual({
      kind: 'message',
      message: 'Bad thing',
    });
    expect(classifyFailure(failed(429, [{ message: 'Too many requests.' }]), fields, 'f')).toEqual({
      kind: 'message',
      message: 'Too many requests.',
    });
    // No answer: nobody knows whether it changed; spec §8 says what happened instead.
    expect(classifyFailure({ status: 'FETCH_ERROR', error: 'offline' }, fields, 'Not changed.')).toEqual({
      kind: 'message',
      message: 'The network connection is poor or was lost.',
    });
  });
});
