// The Date and Time setting: the zone chosen in the ui slice becomes the formatters' default, an
// unknown zone falls back to the device's, and the zone list starts with UTC.
import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it } from 'vitest';
import { timeZoneChosen, uiSlice } from '../ui/uiSlice';
import { deviceTimeZone, displayTimeZoneName, formatDate, formatDateTime, setDisplayTimeZone } from './format';
import { followTimeZoneSetting, timeZones } from './timeZone';

const instant = '2026-11-21T20:30:00Z';

afterEach(() => setDisplayTimeZone(null));

describe('the display time zone', () => {
  it('is the default of both formatters; an explicit zone still wins', () => {
    setDisplayTimeZone('Asia/Tokyo');
    expect(formatDate(instant)).toBe('Nov 22, 2026');
    expect(formatDateTime(instant)).toBe('Nov 22, 2026 · 05:30');
    expect(formatDateTime(instant, 'UTC')).toBe('Nov 21, 2026 · 20:30');
    expect(displayTimeZoneName()).toBe('Asia/Tokyo');
  });

  it("null or an unknown zone means the device's own", () => {
    setDisplayTimeZone('America/Los_Angeles');
    setDisplayTimeZone(null);
    expect(displayTimeZoneName()).toBe(deviceTimeZone());
    setDisplayTimeZone('Mars/Olympus_Mons');
    expect(displayTimeZoneName()).toBe(deviceTimeZone());
    expect(formatDateTime(instant)).toBe(formatDateTime(instant, deviceTimeZone()));
  });
});

describe('following the ui slice', () => {
  const makeStore = () => configureStore({ reducer: { ui: uiSlice.reducer } });

  it('applies the stored choice at once and every later change', () => {
    const store = makeStore();
    store.dispatch(timeZoneChosen('UTC'));
    const stop = followTimeZoneSetting(store);
    expect(formatDateTime(instant)).toBe('Nov 21, 2026 · 20:30');
    store.dispatch(timeZoneChosen('Europe/Berlin'));
    expect(formatDateTime(instant)).toBe('Nov 21, 2026 · 21:30');
    store.dispatch(timeZoneChosen(null));
    expect(displayTimeZoneName()).toBe(deviceTimeZone());
    stop();
    store.dispatch(timeZoneChosen('Asia/Tokyo'));
    expect(displayTimeZoneName()).toBe(deviceTimeZone());
  });

  it('treats a state persisted before the setting existed as automatic', () => {
    setDisplayTimeZone('Asia/Tokyo');
    const store = configureStore({
      reducer: { ui: uiSlice.reducer },
      preloadedState: { ui: { dialog: null, hiddenIntros: [] } },
    });
    followTimeZoneSetting(store)();
    expect(displayTimeZoneName()).toBe(deviceTimeZone());
  });
});

describe('the zone list', () => {
  it('holds UTC first and the IANA zones', () => {
    const zones = timeZones();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('America/New_York');
    expect(zones.filter((z) => z === 'UTC')).toHaveLength(1);
  });
});
