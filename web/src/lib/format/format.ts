//! The display formats of spec §9: dates, durations, file sizes, the remaining time of an upload
//! row, and the truncated names of list rows.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Cut after this many characters in list rows and grid tiles (spec §9). */
export const ROW_NAME_MAX_CHARACTERS = 14;
/** Three dots, the spec's own spelling of an ellipsis ('Initializing...'). */
export const ELLIPSIS = '...';

export type DateInput = Date | string | number;

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter for numeric parts in `timeZone` (the user's own zone when undefined). */
function partsFormatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let formatter = partsFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    partsFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * The zone dates are shown in when a caller names none: the user's choice on the Date and Time
 * screen (kept equal to the ui slice by `followTimeZoneSetting`), or undefined for the device's.
 */
let displayTimeZone: string | undefined;

/** True when `zone` is an IANA name this engine knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Sets the default zone of `formatDate`/`formatDateTime`; null, undefined or an unknown name mean the device's. */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  // A zone this engine does not know (renamed, or stored by another browser) would make every date throw.
  displayTimeZone = zone && isTimeZone(zone) ? zone : undefined;
}

/** The device's own IANA zone, e.g. 'Europe/Berlin'. */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone dates are shown in now. */
export function displayTimeZoneName(): string {
  return displayTimeZone ?? deviceTimeZone();
}

function toDate(value: DateInput): Date | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function dateParts(value: DateInput, timeZone: string | undefined): DateParts | undefined {
  const date = toDate(value);
  if (!date) return undefined;
  const parts: Partial<Record<keyof DateParts, number>> = {};
  for (const part of partsFormatter(timeZone).formatToParts(date)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day' || part.type === 'hour' || part.type === 'minute') {
      parts[part.type] = Number(part.value);
    }
  }
  const { year, month, day, hour, minute } = parts;
  if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined) return undefined;
  // Some engines still write midnight as 24 under h23.
  return { year, month, day, hour: hour % 24, minute };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * 'MMM D, YYYY', e.g. 'Nov 21, 2026', in `timeZone` (an IANA name; when omitted, the zone chosen
 * on the Date and Time screen, else the device's). An invalid date gives ''.
 */
export function formatDate(value: DateInput, timeZone?: string): string {
  const p = dateParts(value, timeZone ?? displayTimeZone);
  return p ? `${MONTHS[p.month - 1]} ${p.day}, ${p.year}` : '';
}

/**
 * 'MMM D, YYYY · HH:mm' (24-hour), e.g. 'Nov 21, 2026 · 09:05', in `timeZone` as `formatDate`.
 * An invalid date gives ''.
 */
export function formatDateTime(value: DateInput, timeZone?: string): string {
  const p = dateParts(value, timeZone ?? displayTimeZone);
  return p ? `${MONTHS[p.month - 1]} ${p.day}, ${p.year} \u00b7 ${pad2(p.hour)}:${pad2(p.minute)}` : '';
}

const nonNegative = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? seconds : 0);

/**
 * The duration label 'HH:mm:ss' (hours grow past 99 if they must). Fractions are dropped, as a
 * player's elapsed time is, so the elapsed label meets the total at the end. Negative or
 * non-finite input gives '00:00:00'.
 */
export function formatDuration(seconds: number): string {
  const total = Math.floor(nonNegative(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `${pad2(h)}:${pad2(m)}:${pad2(total % 60)}`;
}

/**
 * An upload row's remaining time in h m s: '1h 2m 3s', '2m 5s', '45s' (leading zero units are
 * left out, later ones kept: '1h 0m 5s'). Rounded up, so time still left never reads '0s'.
 */
export function formatRemaining(seconds: number): string {
  const total = Math.ceil(nonNegative(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/**
 * A file size in B, kB, MB, GB or TB. Decimal (SI) units, 1 kB = 1000 B: 'kB' with a lower-case
 * k is the SI symbol (a 1024 multiple would be 'KiB'), and it is what phones' own file browsers
 * show, so a size reads the same here as on the device. Bytes are whole; larger units carry at
 * most one decimal ('1.5 MB', '12 MB'). Negative or non-finite input gives '0 B'.
 */
export function formatFileSize(bytes: number): string {
  let value = Math.round(nonNegative(bytes));
  if (value < 1000) return `${value} B`;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let rounded = Math.round(value * 10) / 10;
  // 999.96 kB rounds to 1000 kB: carry into the next unit.
  if (rounded >= 1000 && unit < SIZE_UNITS.length - 1) {
    rounded = Math.round(rounded / 100) / 10;
    unit += 1;
  }
  return `${rounded} ${SIZE_UNITS[unit]}`;
}

/**
 * A name for a list row or grid tile: longer than 14 characters, it is cut at 14 and '...' is
 * added (spec §9). Characters are Unicode code points, so a surrogate pair is never split.
 */
export function truncateName(name: string, max: number = ROW_NAME_MAX_CHARACTERS): string {
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')}${ELLIPSIS}` : name;
}
