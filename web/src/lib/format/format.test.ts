import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDuration, formatFileSize, formatRemaining, truncateName } from './format';

describe('dates (spec §9)', () => {
  const instant = '2026-11-21T14:07:00Z';

  it("'MMM D, YYYY' in the given time zone", () => {
    expect(formatDate(instant, 'UTC')).toBe('Nov 21, 2026');
    expect(formatDate('2026-01-05T12:00:00Z', 'UTC')).toBe('Jan 5, 2026');
    expect(formatDate('2026-09-30T12:00:00Z', 'UTC')).toBe('Sep 30, 2026');
    // The calendar day is the zone's: late on the 21st in UTC is the 22nd in Tokyo.
    expect(formatDate('2026-11-21T20:00:00Z', 'Asia/Tokyo')).toBe('Nov 22, 2026');
    expect(formatDate('2026-11-21T03:00:00Z', 'America/Los_Angeles')).toBe('Nov 20, 2026');
  });

  it("'MMM D, YYYY · HH:mm' on a 24-hour clock with a spaced middle dot", () => {
    expect(formatDateTime(instant, 'UTC')).toBe('Nov 21, 2026 \u00b7 14:07');
    expect(formatDateTime(instant, 'Europe/Berlin')).toBe('Nov 21, 2026 · 15:07');
    expect(formatDateTime('2026-11-21T00:05:00Z', 'UTC')).toBe('Nov 21, 2026 · 00:05');
    expect(formatDateTime('2026-11-21T23:59:00Z', 'UTC')).toBe('Nov 21, 2026 · 23:59');
    // Summer time is the zone's own.
    expect(formatDateTime('2026-07-01T12:00:00Z', 'America/New_York')).toBe('Jul 1, 2026 · 08:00');
  });

  it('accepts a Date, an ISO string or epoch milliseconds; an invalid date gives an empty string', () => {
    const ms = Date.UTC(2026, 10, 21, 14, 7);
    expect(formatDate(new Date(ms), 'UTC')).toBe('Nov 21, 2026');
    expect(formatDate(ms, 'UTC')).toBe('Nov 21, 2026');
    expect(formatDate('not a date', 'UTC')).toBe('');
    expect(formatDateTime(Number.NaN, 'UTC')).toBe('');
  });

  it("uses the user's own time zone when none is given", () => {
    const local = new Date(2026, 10, 21, 9, 5);
    expect(formatDate(local)).toBe('Nov 21, 2026');
    expect(formatDateTime(local)).toBe('Nov 21, 2026 · 09:05');
  });
});

describe('durations', () => {
  it('HH:mm:ss', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(5)).toBe('00:00:05');
    expect(formatDuration(65)).toBe('00:01:05');
    expect(formatDuration(3723)).toBe('01:02:03');
    expect(formatDuration(86399)).toBe('23:59:59');
    expect(formatDuration(360000)).toBe('100:00:00');
  });

  it('drops fractions and treats bad input as zero', () => {
    expect(formatDuration(59.9)).toBe('00:00:59');
    expect(formatDuration(-3)).toBe('00:00:00');
    expect(formatDuration(Number.NaN)).toBe('00:00:00');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('00:00:00');
  });
});

describe('remaining time of an upload row', () => {
  it('h m s without leading zero units', () => {
    expect(formatRemaining(3723)).toBe('1h 2m 3s');
    expect(formatRemaining(125)).toBe('2m 5s');
    expect(formatRemaining(45)).toBe('45s');
    expect(formatRemaining(3605)).toBe('1h 0m 5s');
    expect(formatRemaining(120)).toBe('2m 0s');
    expect(formatRemaining(0)).toBe('0s');
  });

  it('rounds up so time left never reads 0s', () => {
    expect(formatRemaining(0.2)).toBe('1s');
    expect(formatRemaining(59.1)).toBe('1m 0s');
    expect(formatRemaining(-1)).toBe('0s');
  });
});

describe('file sizes (decimal units)', () => {
  it('B, kB, MB, GB, TB', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(999)).toBe('999 B');
    expect(formatFileSize(1000)).toBe('1 kB');
    expect(formatFileSize(1024)).toBe('1 kB');
    expect(formatFileSize(1500)).toBe('1.5 kB');
    expect(formatFileSize(12_345_678)).toBe('12.3 MB');
    expect(formatFileSize(2_000_000_000)).toBe('2 GB');
    expect(formatFileSize(3_450_000_000_000)).toBe('3.5 TB');
  });

  it('carries a rounded 1000 into the next unit and stays at TB', () => {
    expect(formatFileSize(999_960)).toBe('1 MB');
    expect(formatFileSize(999_949)).toBe('999.9 kB');
    expect(formatFileSize(1_500_000_000_000_000)).toBe('1500 TB');
  });

  it('treats bad input as zero', () => {
    expect(formatFileSize(-5)).toBe('0 B');
    expect(formatFileSize(Number.NaN)).toBe('0 B');
  });
});

describe('names in rows', () => {
  it('cuts at 14 characters and adds an ellipsis', () => {
    expect(truncateName('Short name')).toBe('Short name');
    expect(truncateName('Exactly14chars')).toBe('Exactly14chars');
    expect(truncateName('Exactly15charsX')).toBe('Exactly15chars...');
    expect(truncateName('Living room video.mp4')).toBe('Living room vi...');
  });

  it('never splits a character made of a surrogate pair', () => {
    const name = `${'a'.repeat(13)}\u{1F4F7}camera`;
    expect(truncateName(name)).toBe(`${'a'.repeat(13)}\u{1F4F7}...`);
  });
});
