//! The postal patterns of spec §5 ('ddd ddd', 'xxx xxx' alphanumeric, 'dd dd'): which countries'
//! zip codes take one, the input mask that formats a zip code as it is typed, and the full match.
//! Only countries whose real postal codes have one of these shapes are mapped (docs/decisions.md
//! "Postal patterns"): Canada's 'A1A 1A1' is 'xxx xxx'. No country writes its postal code as
//! 'ddd ddd' or 'dd dd' (India's PIN is six digits without a space, the 'ddd dd' of Sweden,
//! Czechia, Slovakia and Greece is another shape), so those two patterns map to no country.
import { isoCode } from '../../lib/countries/iso';

export type PostalPattern = 'ddd ddd' | 'xxx xxx' | 'dd dd';

export const INVALID_ZIP_FORMAT = 'Invalid zip code format';

/** ISO 3166-1 alpha-2 code -> the pattern its postal codes are written in. */
export const POSTAL_PATTERN_BY_COUNTRY: Readonly<Record<string, PostalPattern>> = {
  CA: 'xxx xxx',
};

/** The pattern of the country typed in the address form (a name or an alpha-2 code), if it has one. */
export function postalPatternFor(country: string): PostalPattern | undefined {
  const code = isoCode(country);
  return code ? POSTAL_PATTERN_BY_COUNTRY[code] : undefined;
}

/** Whether a character fills a slot: 'd' a digit, 'x' a letter or digit (upper-cased by `formatPostal`). */
function fits(slot: string, char: string): boolean {
  if (slot === 'd') return /^[0-9]$/.test(char);
  if (slot === 'x') return /^[A-Z0-9]$/.test(char);
  return false;
}

/**
 * Formats what was typed into the pattern: characters that fit no slot are dropped, letters are
 * upper-cased, the space is put in once a character follows it, and input past the end is cut.
 * `caret` (a position in `raw`) comes back as the position after the same typed characters.
 */
export function formatPostal(pattern: PostalPattern, raw: string, caret = raw.length): { value: string; caret: number } {
  let value = '';
  let slot = 0;
  let newCaret = 0;
  for (let i = 0; i < raw.length && slot < pattern.length; i += 1) {
    const char = (raw[i] ?? '').toUpperCase();
    // Literal slots are written by the mask, so a typed space (or a character that fits no slot) is skipped.
    while (slot < pattern.length && pattern[slot] === ' ') {
      if (!fits(pattern[slot + 1] ?? '', char)) break;
      value += ' ';
      slot += 1;
    }
    if (fits(pattern[slot] ?? '', char)) {
      value += char;
      slot += 1;
    }
    if (i < caret) newCaret = value.length;
  }
  return { value, caret: Math.min(newCaret, value.length) };
}

/** Whether a zip code is complete in the pattern. */
export function matchesPostal(pattern: PostalPattern, value: string): boolean {
  if (value.length !== pattern.length) return false;
  return [...pattern].every((slot, i) => (slot === ' ' ? value[i] === ' ' : fits(slot, value[i] ?? '')));
}
