//! Test helpers of the account screens: the profile as the API sends it, a signed-in store with the
//! display zone set to UTC, and holding back one call until the test lets it go.
import { vi } from 'vitest';
import { makePaymentsStore } from '../../../components/payments/testing';
import { followTimeZoneSetting } from '../../../lib/format/timeZone';
import { timeZoneChosen } from '../../../lib/ui/uiSlice';

export const apiProfile = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  username: 'ann',
  email: 'ann@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  account_type: 'individual',
  phone_number: { country_code: '+1', national_number: '5551234567' },
  communication_method: 'email',
  address: {
    country: 'Germany',
    apartment_number: '',
    province: 'Berlin',
    street: 'Unter den Linden',
    house: '5',
    city: 'Berlin',
    zip_code: '10117',
  },
  created_at: '2026-01-05T23:30:00Z',
  auto_topping_up_amount: 0,
  credit_card_wallet_balance: 0,
  one_time_benefit_applied: false,
  organization: null,
  ...overrides,
});

/** A signed-in store whose dates read in UTC; `stop()` (afterEach) puts the device zone back. */
export function makeAccountStore(zone: string | null = 'UTC') {
  const store = makePaymentsStore();
  store.dispatch(timeZoneChosen(zone));
  const stop = followTimeZoneSetting(store);
  return { store, stop };
}

/**
 * Holds back the calls `matches` picks (after `serve` stubbed fetch) until `release()`; the rest go
 * through at once.
 */
export function holdCalls(matches: (method: string, path: string) => boolean) {
  const served = globalThis.fetch;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(request.url, 'http://localhost').pathname.replace(/^\/api\//, '');
    if (matches(request.method, path)) await gate;
    return served(input, init);
  });
  return { release: () => release() };
}

/** The query strings of the calls to `path`, in order. */
export function queriesOf(path: string): string[] {
  const fetchMock = vi.mocked(globalThis.fetch);
  return fetchMock.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost'))
    .filter((url) => url.pathname === `/api/${path}`)
    .map((url) => url.search);
}
