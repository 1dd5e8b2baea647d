//! Test helpers of the account screens: a signed-in store with the display zone set to UTC. The
//! harness itself (the fetch table, the profile answer) is `src/testing`.
import { followTimeZoneSetting } from '../../../lib/format/timeZone';
import { timeZoneChosen } from '../../../lib/ui/uiSlice';
import { makeTestStore } from '../../../testing';

/** A signed-in store whose dates read in UTC; `stop()` (afterEach) puts the device zone back. */
export function makeAccountStore(zone: string | null = 'UTC') {
  const store = makeTestStore();
  store.dispatch(timeZoneChosen(zone));
  const stop = followTimeZoneSetting(store);
  return { store, stop };
}
