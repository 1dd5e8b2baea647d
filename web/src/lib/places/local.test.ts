import { describe, expect, it, vi } from 'vitest';
import type { CityData } from './data';
import { createLocalPlacesProvider } from './local';

const data: CityData = {
  cities: [
    ['Paris', 'FR', 'IDF', '48.85', '2.35'],
    ['Paris', 'US', 'TX', '33.66', '-95.55'],
    ['Parisot', 'FR', 'OCC', '44.26', '1.86'],
    ['Springfield', 'US', 'IL', '39.80', '-89.64'],
    ['Springfield', 'US', 'MO', '37.21', '-93.29'],
    ['West Springfield', 'US', 'MA', '42.10', '-72.62'],
    ['Zürich', 'CH', 'ZH', '47.37', '8.54'],
  ],
  states: [
    { name: 'Île-de-France', isoCode: 'IDF', countryCode: 'FR' },
    { name: 'Occitanie', isoCode: 'OCC', countryCode: 'FR' },
    { name: 'Texas', isoCode: 'TX', countryCode: 'US' },
    { name: 'Illinois', isoCode: 'IL', countryCode: 'US' },
    { name: 'Missouri', isoCode: 'MO', countryCode: 'US' },
    { name: 'Massachusetts', isoCode: 'MA', countryCode: 'US' },
    { name: 'Zurich', isoCode: 'ZH', countryCode: 'CH' },
  ],
};

describe('the local places provider', () => {
  it('suggests cities as city plus country, exact matches first', async () => {
    const places = createLocalPlacesProvider(async () => data);
    const list = await places.suggest('paris');
    expect(list.map((s) => s.label)).toEqual(['Paris, France', 'Paris, United States of America', 'Parisot, France']);
  });

  it('matches any case and accents, and words inside names', async () => {
    const places = createLocalPlacesProvider(async () => data);
    expect((await places.suggest('ZURICH')).map((s) => s.label)).toEqual(['Zürich, Switzerland']);
    expect((await places.suggest('springf')).map((s) => s.city)).toEqual(['Springfield', 'Springfield', 'West Springfield']);
  });

  it('narrows by the country or state after a comma', async () => {
    const places = createLocalPlacesProvider(async () => data);
    expect((await places.suggest('Paris, USA')).map((s) => s.label)).toEqual(['Paris, United States of America']);
    expect((await places.suggest('springfield, miss')).map((s) => s.id)).toEqual(['US|MO|Springfield']);
  });

  it('finds nothing for an unknown or empty query', async () => {
    const places = createLocalPlacesProvider(async () => data);
    expect(await places.suggest('Atlantis')).toEqual([]);
    expect(await places.suggest('  ')).toEqual([]);
  });

  it('gives details with country, locality and state, and empty parts it does not know', async () => {
    const places = createLocalPlacesProvider(async () => data);
    const [first] = await places.suggest('Springfield, Illinois');
    const details = await places.details(first!.id);
    expect(details).toEqual({
      country: 'United States of America',
      countryCode: 'US',
      locality: 'Springfield',
      administrativeArea1: 'Illinois',
      administrativeArea2: '',
      administrativeArea3: '',
      route: '',
      streetNumber: '',
      postalCode: '',
      formatted: 'Springfield, Illinois, United States of America',
    });
  });

  it('loads the data once, and again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(data);
    const places = createLocalPlacesProvider(load);
    await expect(places.suggest('Paris')).rejects.toThrow('offline');
    await places.suggest('Paris');
    await places.suggest('Zurich');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('the bundled data', () => {
  it('knows big cities of the world', async () => {
    // The app fetches the city list as a file; here the same JSON is read as a module.
    const places = createLocalPlacesProvider(async () => ({
      cities: (await import('country-state-city/lib/assets/city.json')).default as unknown as CityData['cities'],
      states: (await import('country-state-city/lib/assets/state.json')).default as unknown as CityData['states'],
    }));
    const labels = (await places.suggest('London')).map((s) => s.label);
    expect(labels).toContain('London, United Kingdom');
    const [berlin] = await places.suggest('Berlin, Germany');
    expect(await places.details(berlin!.id)).toMatchObject({ countryCode: 'DE', locality: 'Berlin', administrativeArea1: 'Berlin' });
  }, 30000);
});
