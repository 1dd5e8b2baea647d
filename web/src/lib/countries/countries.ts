//! Country calling codes (generated from the `country-codes-list` package: `npm run gen:countries`),
//! and which country a calling code that several countries share stands for.
import list from './countries.json';

export interface Country {
  id: string;
  name: string;
  dialCode: string;
}

export const COUNTRIES: Country[] = list;

export const KNOWN_DIAL_CODES = new Set(COUNTRIES.map((c) => c.dialCode));

/**
 * The country a shared calling code means until the user picks another: the one most numbers with
 * it belong to (+1 is the United States, not American Samoa, the first of them by name).
 */
const PRIMARY_BY_DIAL_CODE: Readonly<Record<string, string>> = {
  '+1': 'US',
  '+7': 'RU',
  '+39': 'IT',
  '+44': 'GB',
  '+47': 'NO',
  '+61': 'AU',
  '+64': 'NZ',
  '+212': 'MA',
  '+262': 'RE',
  '+358': 'FI',
  '+500': 'FK',
  '+590': 'GP',
  '+599': 'CW',
  '+672': 'NF',
};

export const isPrimaryForDialCode = (country: Country) => (PRIMARY_BY_DIAL_CODE[country.dialCode] ?? country.id) === country.id;

/**
 * A country's option value in a calling-code picker: the bare code for the country the code
 * stands for, so choosing '+1' chooses the United States; the code and the country id for the
 * others that share it ('+1 CA').
 */
export const dialOptionValue = (country: Country) => (isPrimaryForDialCode(country) ? country.dialCode : `${country.dialCode} ${country.id}`);
