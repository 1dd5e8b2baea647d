//! Country calling codes (generated from the `country-codes-list` package: `npm run gen:countries`).
import list from './countries.json';

export interface Country {
  id: string;
  name: string;
  dialCode: string;
}

export const COUNTRIES: Country[] = list;

export const KNOWN_DIAL_CODES = new Set(COUNTRIES.map((c) => c.dialCode));
