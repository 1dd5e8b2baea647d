//! Where files and folders go on a map: files with coordinates (those taken at one spot share a
//! marker), and a folder at the centre of its located files.
import type { Item } from '../../../lib/api/evidence';

export type LatLng = [number, number];

export interface Located<T> {
  value: T;
  position: LatLng;
}

const valid = (lat: number, lng: number) => Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The position of a file, or undefined when it was captured without a location. */
export function itemPosition(item: Pick<Item, 'latitude' | 'longitude'>): LatLng | undefined {
  const { latitude, longitude } = item;
  if (latitude == null || longitude == null || !valid(latitude, longitude)) return undefined;
  return [latitude, longitude];
}

/** Files split into those with a position and those without (the list under the map). */
export function splitByLocation<T extends Pick<Item, 'latitude' | 'longitude'>>(items: readonly T[]): { located: Located<T>[]; unlocated: T[] } {
  const located: Located<T>[] = [];
  const unlocated: T[] = [];
  for (const item of items) {
    const position = itemPosition(item);
    if (position) located.push({ value: item, position });
    else unlocated.push(item);
  }
  return { located, unlocated };
}

/** The centre of positions (their mean), or undefined when there are none. */
export function centre(positions: readonly LatLng[]): LatLng | undefined {
  if (positions.length === 0) return undefined;
  const [lat, lng] = positions.reduce<LatLng>(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
  return [lat / positions.length, lng / positions.length];
}

/** Where a folder's marker goes: the centre of its located files. */
export function folderPosition(items: readonly Pick<Item, 'latitude' | 'longitude'>[]): LatLng | undefined {
  return centre(splitByLocation(items).located.map((l) => l.position));
}

/**
 * Located values grouped by spot (positions equal to about a metre, 5 decimals), in first-seen
 * order: files taken at one place share one marker that counts them.
 */
export function groupByPosition<T>(located: readonly Located<T>[]): { position: LatLng; values: T[] }[] {
  const groups = new Map<string, { position: LatLng; values: T[] }>();
  for (const { value, position } of located) {
    const key = position.map((n) => n.toFixed(5)).join(',');
    const group = groups.get(key);
    if (group) group.values.push(value);
    else groups.set(key, { position, values: [value] });
  }
  return [...groups.values()];
}
