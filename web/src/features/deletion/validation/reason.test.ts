// The reasons form (contract "Deletion"): 'Other' needs 3 to 500 characters of details with the
// server's message; the other reasons need none.
import { describe, expect, it } from 'vitest';
import { reasonSchema } from './reason';

const message = (value: { reasonId: string; details: string }) => {
  const result = reasonSchema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('the deletion reason', () => {
  it('needs details for Other', () => {
    expect(message({ reasonId: 'other', details: '' })).toBe('Please tell us why.');
    expect(message({ reasonId: 'other', details: '  ab  ' })).toBe('Please tell us why.');
    expect(message({ reasonId: 'other', details: 'a'.repeat(501) })).toBe('Please tell us why.');
    expect(message({ reasonId: 'other', details: 'abc' })).toBeUndefined();
    expect(message({ reasonId: 'other', details: 'a'.repeat(500) })).toBeUndefined();
  });

  it('needs no details for the other reasons', () => {
    expect(message({ reasonId: 'privacy', details: '' })).toBeUndefined();
  });

  it('needs a reason', () => {
    expect(reasonSchema.safeParse({ reasonId: '', details: '' }).success).toBe(false);
  });
});
