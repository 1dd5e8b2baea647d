//! Country name -> ISO 3166-1 alpha-2 code (spec §3 "Country name to ISO two-letter code table",
//! about 240 entries), used to send the billing country to Stripe. The names come from the
//! `i18n-iso-countries` package's English list (official names plus common aliases such as
//! 'United States', 'USA', 'UK', 'Russia'); lookups ignore case, accents and extra spaces.
//! The phone-code list (countries.ts) is a separate table and stays as it is.
import en from 'i18n-iso-countries/langs/en.json';

export interface IsoCountry {
  /** ISO 3166-1 alpha-2, upper case. */
  code: string;
  /** The name shown in forms: letters, spaces and . ' - only (spec §5 country rule). */
  name: string;
}

const LETTERS = /^[\p{L} .'-]+$/u;

/** 'Moldova, Republic of' -> 'Republic of Moldova'; 'Cocos (Keeling) Islands' -> 'Cocos Islands'. */
function formName(names: string[]): string {
  const plain = names.find((n) => LETTERS.test(n));
  if (plain) return plain;
  const first = (names[0] ?? '').replace(/\s*\([^)]*\)/g, '').trim();
  const comma = first.indexOf(',');
  if (comma < 0) return first;
  const head = first.slice(0, comma).trim();
  const tail = first.slice(comma + 1).trim();
  return / of$/.test(tail) || !tail.includes(' ') ? `${tail} ${head}` : `${head} ${tail}`;
}

export function normalizeName(name: string): string {
  return name
    .replace(/[’‘]/g, "'")
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.,()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const entries = Object.entries(en.countries as Record<string, string | string[]>);

export const ISO_COUNTRIES: IsoCountry[] = entries
  .map(([code, names]) => ({ code, name: formName(Array.isArray(names) ? names : [names]) }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const byCode = new Map(ISO_COUNTRIES.map((c) => [c.code, c.name]));

const byName = new Map<string, string>();
// Every official name and form name first, then aliases where they are not ambiguous.
for (const [code, names] of entries) {
  const list = Array.isArray(names) ? names : [names];
  for (const n of [list[0] ?? '', byCode.get(code) ?? '']) if (n) byName.set(normalizeName(n), code);
}
for (const [code, names] of entries) {
  const list = Array.isArray(names) ? names : [names];
  for (const n of list.slice(1)) {
    const key = normalizeName(n);
    if (!byName.has(key)) byName.set(key, code);
  }
}

/** The alpha-2 code of a country name (or of a code given as such), or undefined. */
export function isoCode(country: string): string | undefined {
  const trimmed = country.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed) && byCode.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  return byName.get(normalizeName(trimmed));
}

/** The form name of an alpha-2 code, or undefined. */
export function countryName(code: string): string | undefined {
  return byCode.get(code.toUpperCase());
}
