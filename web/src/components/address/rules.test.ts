import { describe, expect, it } from 'vitest';
import { EMPTY_DETAILS } from '../../lib/places';
import { addressFromPlace, addressSchema, fullAddress } from './rules';

const valid = {
  foundAddress: '',
  country: 'United States of America',
  province: 'Illinois',
  street: 'Main Street',
  house: '12B',
  apartmentNumber: '',
  city: 'Springfield',
  zipCode: '62701',
};

function errors(values: Partial<typeof valid>, options?: { apartmentRequired?: boolean }) {
  const result = addressSchema(options).safeParse({ ...valid, ...values });
  if (result.success) return {};
  // The first message of each field, as the form shows it (zodResolver keeps the first).
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[String(issue.path[0])] ??= issue.message;
  return out;
}

describe('the address rules (spec §5)', () => {
  it('accepts a complete address without Unit/Suite', () => {
    expect(errors({})).toEqual({});
  });

  it('requires every field except Unit/Suite', () => {
    expect(errors({ country: '', province: '', street: '', house: '', city: '', zipCode: '' })).toEqual({
      country: 'This field is required',
      province: 'This field is required',
      street: 'This field is required',
      house: 'This field is required',
      city: 'This field is required',
      zipCode: 'This field is required',
    });
  });

  it('requires Unit/Suite only when apartmentRequired is set', () => {
    expect(errors({ apartmentNumber: '' }, { apartmentRequired: true })).toEqual({ apartmentNumber: 'This field is required' });
  });

  it('caps lengths with their messages', () => {
    const long = (n: number) => 'a'.repeat(n);
    expect(errors({ country: long(51), street: long(51), city: long(51) })).toEqual({
      country: 'Maximum 50 characters',
      street: 'Maximum 50 characters',
      city: 'Maximum 50 characters',
    });
    expect(errors({ province: long(31) })).toEqual({ province: 'Maximum 30 characters' });
    expect(errors({ house: long(10), apartmentNumber: long(10), zipCode: long(10) })).toEqual({
      house: 'Maximum 9 characters',
      apartmentNumber: 'Maximum 9 characters',
      zipCode: 'Maximum 9 characters',
    });
  });

  it('takes letters only in country, city and province, at least 2', () => {
    expect(errors({ country: 'Fr4nce', city: 'Springfield 2', province: 'Ill!nois' })).toEqual({
      country: 'Incorrect input. Only letters allowed',
      city: 'Incorrect input. Only letters allowed',
      province: 'Incorrect input. Only letters allowed',
    });
    expect(errors({ country: 'F', city: 'S', province: 'I', street: 'M' })).toEqual({
      country: 'Minimum 2 characters',
      city: 'Minimum 2 characters',
      province: 'Minimum 2 characters',
      street: 'Minimum 2 characters',
    });
    expect(errors({ country: "Côte d'Ivoire", city: 'St. Louis', province: 'Île-de-France' })).toEqual({});
  });
});

// spec §5 Postal patterns
describe('the zip code of a country with a postal pattern', () => {
  const canada = { country: 'Canada', province: 'Ontario', city: 'Ottawa' };

  it('must fill the pattern', () => {
    expect(errors({ ...canada, zipCode: 'K1A 0B1' })).toEqual({});
    expect(errors({ ...canada, zipCode: 'K1A 0B' })).toEqual({ zipCode: 'Invalid zip code format' });
    expect(errors({ ...canada, zipCode: 'K1A0B1' })).toEqual({ zipCode: 'Invalid zip code format' });
  });

  it('reads only "This field is required" when empty', () => {
    expect(errors({ ...canada, zipCode: '' })).toEqual({ zipCode: 'This field is required' });
  });

  it('is checked even while other fields are wrong', () => {
    expect(errors({ ...canada, street: '', zipCode: '123' })).toEqual({
      street: 'This field is required',
      zipCode: 'Invalid zip code format',
    });
  });

  it('keeps the other countries to required and at most 9 characters', () => {
    expect(errors({ country: 'United Kingdom', zipCode: 'SW1A 1AA' })).toEqual({});
    expect(errors({ country: 'Sweden', zipCode: '11122' })).toEqual({});
  });
});

describe('addresses from places', () => {
  it('fills what the place has and clears the rest', () => {
    const address = addressFromPlace(
      {
        ...EMPTY_DETAILS,
        country: 'Germany',
        countryCode: 'DE',
        locality: 'Berlin',
        administrativeArea1: 'Berlin',
        formatted: 'Berlin, Germany',
      },
      'Berlin, Germany',
    );
    expect(address).toEqual({
      foundAddress: 'Berlin, Germany',
      country: 'Germany',
      province: 'Berlin',
      city: 'Berlin',
      street: '',
      house: '',
      apartmentNumber: '',
      zipCode: '',
    });
  });

  it('builds the one-line address from house, unit, street, province, country and zip code', () => {
    expect(fullAddress({ ...valid, apartmentNumber: '4' })).toBe('12B, 4, Main Street, Illinois, United States of America, 62701');
    expect(fullAddress(valid)).toBe('12B, Main Street, Illinois, United States of America, 62701');
  });
});
