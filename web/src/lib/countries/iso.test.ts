import { describe, expect, it } from 'vitest';
import { countryName, ISO_COUNTRIES, isoCode } from './iso';

describe('the ISO 3166 table', () => {
  it('has about 240 countries, each with a form name of letters only', () => {
    expect(ISO_COUNTRIES.length).toBeGreaterThanOrEqual(240);
    for (const c of ISO_COUNTRIES) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.name).toMatch(/^[\p{L} .'-]+$/u);
    }
  });

  it('finds codes by official name, alias, any case and accents', () => {
    expect(isoCode('United States of America')).toBe('US');
    expect(isoCode('united states')).toBe('US');
    expect(isoCode('USA')).toBe('US');
    expect(isoCode('United Kingdom')).toBe('GB');
    expect(isoCode('Germany')).toBe('DE');
    expect(isoCode('  côte d’ivoire ')).toBe('CI');
    expect(isoCode("Cote d'Ivoire")).toBe('CI');
    expect(isoCode("Côte d'Ivoire")).toBe('CI');
    expect(isoCode('Russia')).toBe('RU');
    expect(isoCode('Åland Islands')).toBe('AX');
    expect(isoCode('aland islands')).toBe('AX');
  });

  it('accepts a code itself and refuses unknown names', () => {
    expect(isoCode('ca')).toBe('CA');
    expect(isoCode('Atlantis')).toBeUndefined();
    expect(isoCode('')).toBeUndefined();
  });

  it('names every code so that the name maps back to it', () => {
    expect(countryName('md')).toBe('Republic of Moldova');
    expect(countryName('VG')).toBe('British Virgin Islands');
    for (const c of ISO_COUNTRIES) expect(isoCode(c.name)).toBe(c.code);
  });

  it('names the phone-code list countries too', async () => {
    const { COUNTRIES } = await import('./countries');
    const missing = COUNTRIES.filter((c) => isoCode(c.name) === undefined && isoCode(c.id) === undefined);
    expect(missing.map((c) => c.name)).toEqual([]);
  });
});
