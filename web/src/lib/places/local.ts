//! The offline local places provider: suggestions from the bundled world-cities data (city plus
//! country, spec §2 "Address picker"), details with the country, locality and state. A city list
//! knows no street, house number or postal code: those parts come back empty, so the address
//! form clears them (spec §4 "Address selection").
import { countryName, isoCode, normalizeName } from '../countries/iso';
import { loadCityData, type CityData } from './data';
import { EMPTY_DETAILS, type PlaceSuggestion, type PlacesProvider } from './provider';

export const MAX_SUGGESTIONS = 10;

interface Entry {
  key: string;
  name: string;
  countryCode: string;
  stateCode: string;
}

interface Index {
  entries: Entry[];
  states: Map<string, string>;
}

const stateKey = (countryCode: string, stateCode: string) => `${countryCode}-${stateCode}`;

function buildIndex(data: CityData): Index {
  const states = new Map(data.states.map((s) => [stateKey(s.countryCode, s.isoCode), s.name]));
  const entries = data.cities.map(([name, countryCode, stateCode]) => ({ key: normalizeName(name), name, countryCode, stateCode }));
  return { entries, states };
}

/** The id of a city: its country code, state code and name (stable across data versions). */
export function placeId(countryCode: string, stateCode: string, name: string): string {
  return [countryCode, stateCode, name].map(encodeURIComponent).join('|');
}

function parseId(id: string): [string, string, string] | undefined {
  const parts = id.split('|').map(decodeURIComponent);
  return parts.length === 3 ? (parts as [string, string, string]) : undefined;
}

export function createLocalPlacesProvider(load: () => Promise<CityData> = loadCityData): PlacesProvider {
  let index: Promise<Index> | null = null;
  const getIndex = () => {
    if (!index) {
      index = load().then(buildIndex);
      index.catch(() => {
        index = null;
      });
    }
    return index;
  };

  const nameOf = (code: string) => countryName(code) ?? code;

  return {
    async suggest(query) {
      // 'city' or 'city, state or country' (the part after the comma narrows the list).
      const [cityPart = '', ...rest] = query.split(',');
      const city = normalizeName(cityPart);
      const where = normalizeName(rest.join(' '));
      if (!city) return [];
      const { entries, states } = await getIndex();
      const whereCode = where ? isoCode(where) : undefined;
      const matchesWhere = (e: Entry) => {
        if (!where) return true;
        if (whereCode) return e.countryCode === whereCode;
        const state = normalizeName(states.get(stateKey(e.countryCode, e.stateCode)) ?? '');
        return state.startsWith(where) || normalizeName(nameOf(e.countryCode)).startsWith(where);
      };
      const exact: Entry[] = [];
      const prefix: Entry[] = [];
      const words: Entry[] = [];
      for (const e of entries) {
        if (e.key === city) exact.push(e);
        else if (e.key.startsWith(city)) prefix.push(e);
        else if (e.key.includes(` ${city}`)) words.push(e);
      }
      const seen = new Set<string>();
      const out: PlaceSuggestion[] = [];
      for (const e of [...exact, ...prefix.sort((a, b) => a.key.length - b.key.length), ...words]) {
        if (!matchesWhere(e)) continue;
        const country = nameOf(e.countryCode);
        const state = states.get(stateKey(e.countryCode, e.stateCode)) ?? '';
        // One suggestion per city, state and country ('city, country' may repeat across states).
        const unique = `${e.name}|${state}|${e.countryCode}`;
        if (seen.has(unique)) continue;
        seen.add(unique);
        out.push({ id: placeId(e.countryCode, e.stateCode, e.name), city: e.name, country, region: state, label: `${e.name}, ${country}` });
        if (out.length >= MAX_SUGGESTIONS) break;
      }
      return out;
    },

    async details(id) {
      const parsed = parseId(id);
      if (!parsed) return { ...EMPTY_DETAILS };
      const [countryCode, stateCode, name] = parsed;
      const { states } = await getIndex();
      const country = nameOf(countryCode);
      const state = states.get(stateKey(countryCode, stateCode)) ?? '';
      return {
        ...EMPTY_DETAILS,
        country,
        countryCode,
        locality: name,
        administrativeArea1: state,
        formatted: [name, state, country].filter(Boolean).join(', '),
      };
    },
  };
}

let shared: PlacesProvider | null = null;

/** The app's places provider. */
export function placesProvider(): PlacesProvider {
  shared ??= createLocalPlacesProvider();
  return shared;
}
