// Searching the time zones and naming their offsets.
import { describe, expect, it } from 'vitest';
import { matchTimeZones, shownZones, zoneOffset } from './timeZones';

const ZONES = ['UTC', 'America/New_York', 'America/Argentina/Buenos_Aires', 'Europe/Berlin', 'Asia/Kolkata'];

describe('time zone search', () => {
  it('lists every zone for an empty search', () => {
    expect(matchTimeZones(ZONES, '  ')).toEqual(ZONES);
  });

  it('matches words in any case, with spaces for underscores and slashes', () => {
    expect(matchTimeZones(ZONES, 'new york')).toEqual(['America/New_York']);
    expect(matchTimeZones(ZONES, 'BERLIN')).toEqual(['Europe/Berlin']);
    expect(matchTimeZones(ZONES, 'america buenos')).toEqual(['America/Argentina/Buenos_Aires']);
    expect(matchTimeZones(ZONES, 'America/New_York')).toEqual(['America/New_York']);
    expect(matchTimeZones(ZONES, 'america')).toEqual(['America/New_York', 'America/Argentina/Buenos_Aires']);
    expect(matchTimeZones(ZONES, 'atlantis')).toEqual([]);
  });
});

describe('zone offsets', () => {
  it('names the offset at the given moment, summer time included', () => {
    expect(zoneOffset('Asia/Kolkata', new Date('2026-11-21T12:00:00Z'))).toBe('GMT+5:30');
    expect(zoneOffset('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe('GMT+1');
    expect(zoneOffset('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe('GMT+2');
    expect(zoneOffset('UTC', new Date('2026-07-15T12:00:00Z'))).toBe('GMT');
    expect(zoneOffset('Mars/Olympus_Mons', new Date())).toBe('');
  });
});

describe('the zones shown', () => {
  it('shows the first ones and always the chosen one', () => {
    expect(shownZones(ZONES, null, 2)).toEqual(['UTC', 'America/New_York']);
    expect(shownZones(ZONES, 'America/New_York', 2)).toEqual(['UTC', 'America/New_York']);
    expect(shownZones(ZONES, 'Asia/Kolkata', 2)).toEqual(['Asia/Kolkata', 'UTC']);
    // A chosen zone the search does not match stays out.
    expect(shownZones(['UTC', 'Europe/Berlin'], 'Asia/Kolkata', 2)).toEqual(['UTC', 'Europe/Berlin']);
  });
});
