//! The address rules of spec §5 with its messages word for word, and the address of spec §3.
import { z } from 'zod';
import { MESSAGES } from '../../lib/validation/rules';
import type { PlaceDetails } from '../../lib/places';
import { INVALID_ZIP_FORMAT, matchesPostal, postalPatternFor } from './postal';

export const ADDRESS_MESSAGES = {
  required: MESSAGES.required,
  min2: MESSAGES.min2,
  max50: 'Maximum 50 characters',
  max30: 'Maximum 30 characters',
  max9: 'Maximum 9 characters',
  lettersOnly: 'Incorrect input. Only letters allowed',
  // Not given by the spec (docs/decisions.md "Postal patterns"): a zip code not in its country's postal pattern.
  zipFormat: INVALID_ZIP_FORMAT,
} as const;

/** Letters, with the spaces, dots, hyphens and apostrophes of names like "Côte d'Ivoire" or "St. Louis". */
const LETTERS = /^[\p{L}][\p{L} .'-]*$/u;

const required = () => z.string().trim().min(1, ADDRESS_MESSAGES.required);

export const addressRules = {
  country: required().max(50, ADDRESS_MESSAGES.max50).regex(LETTERS, ADDRESS_MESSAGES.lettersOnly).min(2, ADDRESS_MESSAGES.min2),
  street: required().max(50, ADDRESS_MESSAGES.max50).min(2, ADDRESS_MESSAGES.min2),
  house: required().max(9, ADDRESS_MESSAGES.max9),
  apartmentNumber: z.string().trim().max(9, ADDRESS_MESSAGES.max9),
  city: required().max(50, ADDRESS_MESSAGES.max50).regex(LETTERS, ADDRESS_MESSAGES.lettersOnly).min(2, ADDRESS_MESSAGES.min2),
  province: required().max(30, ADDRESS_MESSAGES.max30).regex(LETTERS, ADDRESS_MESSAGES.lettersOnly).min(2, ADDRESS_MESSAGES.min2),
  zipCode: required().max(9, ADDRESS_MESSAGES.max9),
};

/**
 * The address form's schema; Unit/Suite is required only when `apartmentRequired` is set. A zip
 * code of a country with a postal pattern (spec §5 "Postal patterns", postal.ts) must fill it.
 */
export function addressSchema({ apartmentRequired = false }: { apartmentRequired?: boolean } = {}) {
  return z
    .object({
      foundAddress: z.string(),
      ...addressRules,
      apartmentNumber: apartmentRequired ? required().max(9, ADDRESS_MESSAGES.max9) : addressRules.apartmentNumber,
    })
    .refine(
      ({ country, zipCode }) => {
        const pattern = postalPatternFor(country);
        // An empty zip code already reads 'This field is required'.
        return !pattern || !zipCode || matchesPostal(pattern, zipCode);
      },
      { message: ADDRESS_MESSAGES.zipFormat, path: ['zipCode'] },
    );
}

/** Spec §3 "Address": the found address text and the fields. */
export type Address = z.infer<ReturnType<typeof addressSchema>>;

export type AddressFields = Omit<Address, 'foundAddress'>;

export const ADDRESS_FIELDS = ['country', 'province', 'street', 'house', 'apartmentNumber', 'city', 'zipCode'] as const;

export const EMPTY_ADDRESS: Address = {
  foundAddress: '',
  country: '',
  street: '',
  house: '',
  apartmentNumber: '',
  city: '',
  province: '',
  zipCode: '',
};

/**
 * The address fields a chosen place fills (spec §4 "Address selection"); every field the place
 * has no match for is cleared, Unit/Suite included.
 */
export function addressFromPlace(details: PlaceDetails, foundAddress: string): Address {
  return {
    foundAddress: foundAddress || details.formatted,
    country: details.country,
    province: details.administrativeArea1,
    city: details.locality || details.administrativeArea3 || details.administrativeArea2,
    street: details.route,
    house: details.streetNumber,
    apartmentNumber: '',
    zipCode: details.postalCode,
  };
}

/**
 * The one-line full address (spec §2 "Billing address sub-screen"): house, apartment number,
 * street, province, country and zip code, in that order, without the empty ones.
 */
export function fullAddress(address: AddressFields): string {
  return [address.house, address.apartmentNumber, address.street, address.province, address.country, address.zipCode]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}
