import { describe, expect, it } from 'vitest';
import { paymentInformationSchema, type PaymentInformationValues } from './billing';

const valid: PaymentInformationValues = {
  firstName: 'Ann',
  lastName: 'Lee',
  fullAddress: '12, Main Street, Illinois, United States of America, 62701',
  foundAddress: '',
  country: 'United States of America',
  province: 'Illinois',
  street: 'Main Street',
  house: '12',
  apartmentNumber: '',
  city: 'Springfield',
  zipCode: '62701',
  useProfileAddress: false,
  setDefault: true,
};

function errors(values: Partial<PaymentInformationValues>) {
  const result = paymentInformationSchema.safeParse({ ...valid, ...values });
  const out: Record<string, string> = {};
  if (!result.success) for (const issue of result.error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
}

describe('the billing rules (spec §5)', () => {
  it('accepts a complete form', () => {
    expect(errors({})).toEqual({});
  });

  it('requires the names, 2 to 50 characters', () => {
    expect(errors({ firstName: '', lastName: '  ' })).toEqual({ firstName: 'This field is required', lastName: 'This field is required' });
    expect(errors({ firstName: 'A' })).toEqual({ firstName: 'Minimum 2 characters' });
    expect(errors({ lastName: 'L'.repeat(51) })).toEqual({ lastName: 'Maximum 50 characters' });
  });

  it('requires the full billing address', () => {
    expect(errors({ fullAddress: '' })).toEqual({ fullAddress: 'Enter your billing address' });
  });
});
