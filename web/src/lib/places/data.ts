//! The bundled world-cities data (`country-state-city`: about 150,000 cities with their state
//! and country codes), loaded on first use as chunks of their own.

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

export async function loadCityData(): Promise<CityData> {
  const [cities, states] = await Promise.all([
    import('country-state-city/lib/assets/city.json').then((m) => m.default as unknown as CityRow[]),
    import('country-state-city/lib/assets/state.json').then((m) => m.default as unknown as StateRow[]),
  ]);
  return { cities, states };
}
