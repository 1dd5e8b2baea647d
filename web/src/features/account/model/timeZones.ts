//! Finding a time zone: a search over the IANA names that reads their underscores and slashes as
//! spaces, and each zone's offset from UTC at a given moment ('GMT+9', 'GMT-4', 'GMT').

const words = (text: string) => text.toLowerCase().replace(/[_/]/g, ' ').trim();

/** The zones whose name holds every typed word, in the list's order; all of them for an empty search. */
export function matchTimeZones(zones: readonly string[], query: string): string[] {
  const wanted = words(query).split(/\s+/).filter(Boolean);
  if (wanted.length === 0) return [...zones];
  return zones.filter((zone) => {
    const name = words(zone);
    return wanted.every((word) => name.includes(word));
  });
}

/** The zone's offset at `at`, as the browser writes it ('GMT+5:30'); '' if it cannot say. */
export function zoneOffset(zone: string, at: Date): string {
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(at);
    const offset = parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Engines differ on UTC itself ('GMT' or 'GMT+0').
    return offset === 'GMT+0' ? 'GMT' : offset;
  } catch {
    return '';
  }
}

/** How many zones the list shows at once (a long list of radios is slow to draw on a phone). */
export const ZONES_SHOWN = 50;

/** The first `limit` matches; the chosen zone, when it matches, is always among them (first if it would not be). */
export function shownZones(matches: readonly string[], chosen: string | null, limit: number = ZONES_SHOWN): string[] {
  const first = matches.slice(0, limit);
  if (chosen && !first.includes(chosen) && matches.includes(chosen)) return [chosen, ...first.slice(0, limit - 1)];
  return first;
}
