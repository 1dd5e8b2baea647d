//! The Date and Time setting reaching the date formatters: the formatters' display zone follows the
//! ui slice's `timeZone` (persisted on this device), and the list of zones a user can choose from.
import { selectTimeZone, type UiState } from '../ui/uiSlice';
import { setDisplayTimeZone } from './format';

interface StoreLike {
  getState: () => { ui: UiState };
  subscribe: (listener: () => void) => () => void;
}

/**
 * Applies the chosen zone now and after every change. A store subscriber runs before React
 * re-renders for the same dispatch (the subscription is older than react-redux's), so no screen
 * formats a date with a stale zone — the rehydrated choice included. Returns the unsubscribe.
 */
export function followTimeZoneSetting(store: StoreLike): () => void {
  let applied: string | null | undefined;
  const apply = () => {
    const zone = selectTimeZone(store.getState());
    if (zone === applied) return;
    applied = zone;
    setDisplayTimeZone(zone);
  };
  apply();
  return store.subscribe(apply);
}

/** Every IANA zone this engine knows, UTC first (Intl leaves UTC out of its list). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
