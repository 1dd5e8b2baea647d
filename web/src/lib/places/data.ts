//! The bundled world-cities data (`country-state-city`: about 150,000 cities with their state
//! and country codes), loaded on first use. The 8 MB city list is emitted as a JSON file of its
//! own and fetched (a JavaScript chunk that size is more than the service worker precaches);
//! the state names come as a chunk of their own.
import cityListUrl from 'country-state-city/lib/assets/city.json?url';

/** [name, countryCode, stateCode, latitude, longitude] */
export type CityRow = [string, string, string, string, string];

export interface StateRow {
  name: string;
  isoCode: string;
  countryCode: string;
}

export interface CityData {
  cities: CityRow[];
  states: StateRow[];
}

async function fetchCities(): Promise<CityRow[]> {
  const response = await fetch(cityListUrl);
  if (!response.ok) throw new Error(`The city list could not be loaded (${response.status})`);
  return (await response.json()) as CityRow[];
}

export async function loadCityData(): Promise<CityData> {
  const [cities, states] = await Promise.all([
    fetchCities(),
    import('country-state-city/lib/assets/state.json').then((m) => m.default as unknown as StateRow[]),
  ]);
  return { cities, states };
}
