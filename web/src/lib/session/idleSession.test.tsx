// The idle action (spec §4 "Session"): signed in, being idle refreshes the session through the
// base query's refresh (10 minutes, 20 on a dev host, activity debounced by 2 s); a refused
// refresh logs out; signed out or offline, nothing is sent.
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderWithStore, serve, type ApiCall } from '../../testing';
import { api } from '../api/api';
import { IdleSession } from './idleSession';
import { loggedOut } from './loginInfoSlice';

const MINUTE = 60 * 1000;

// A call answered 401 until the session is refreshed: its refresh is the one under way.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({ probe: build.query<unknown, void>({ query: () => 'probe/' }) }),
});
const REFRESHED = { access: 'a2', refresh: 'r2' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function mount(options: { signedIn?: boolean; hostname?: string } = {}) {
  const store = makeTestStore({ signedIn: options.signedIn !== false });
  renderWithStore(store, <IdleSession hostname={options.hostname ?? 'evidentia.app'} />);
  return store;
}

const refreshes = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === 'accounts/token/refresh/');

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('the idle session', () => {
  it('refreshes the session after 10 minutes without activity', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    const store = mount();
    await advance(10 * MINUTE - 1);
    expect(refreshes(calls)).toEqual([]);
    await advance(1);
    await vi.waitFor(() => expect(store.getState().loginInfo).toMatchObject({ accessToken: 'a2', refreshToken: 'r2' }));
    expect(refreshes(calls).map((c) => c.body)).toEqual([{ refresh: 'r' }]);
  });

  it('waits 20 minutes on a dev host', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    mount({ hostname: 'dev.evidentia.app' });
    await advance(10 * MINUTE);
    expect(refreshes(calls)).toEqual([]);
    await advance(10 * MINUTE);
    await vi.waitFor(() => expect(refreshes(calls)).toHaveLength(1));
  });

  it('counts from 2 seconds after the last activity on the page', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    mount();
    await advance(5 * MINUTE);
    act(() => {
      document.dispatchEvent(new Event('keydown'));
    });
    await advance(10 * MINUTE);
    expect(refreshes(calls)).toEqual([]);
    await advance(2000);
    await vi.waitFor(() => expect(refreshes(calls)).toHaveLength(1));
  });

  it('logs out when the refresh is refused', async () => {
    serve({ 'POST accounts/token/refresh/': answer(401, { errors: [{ message: 'Token is invalid', code: 'token_not_valid' }] }) });
    const store = mount();
    await advance(10 * MINUTE);
    await vi.waitFor(() => expect(store.getState().loginInfo.accessToken).toBeNull());
  });

  it('does nothing while signed out', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    mount({ signedIn: false });
    await advance(60 * MINUTE);
    expect(calls).toEqual([]);
  });

  it('stops once the user logs out', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    const store = mount();
    await advance(5 * MINUTE);
    act(() => {
      store.dispatch(loggedOut());
    });
    await advance(60 * MINUTE);
    expect(calls).toEqual([]);
  });

  it('keeps the session of an offline device as it is', async () => {
    const calls = serve({ 'POST accounts/token/refresh/': REFRESHED });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const store = mount();
    await advance(30 * MINUTE);
    expect(calls).toEqual([]);
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it('waits for a refresh already under way instead of refreshing again', async () => {
    const seen: string[] = [];
    let refreshed = false;
    serve({}); // the relative-URL Request
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const path = new URL(request.url).pathname;
        seen.push(path);
        if (path === '/api/accounts/token/refresh/') {
          // Still under way when the idle action comes.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          refreshed = true;
          return Response.json(REFRESHED);
        }
        return refreshed
          ? Response.json({ ok: true })
          : Response.json({ errors: [{ message: 'expired', code: 'token_not_valid' }] }, { status: 401 });
      }),
    );
    const store = mount();
    await advance(10 * MINUTE - 500);
    const probe = store.dispatch(probeApi.endpoints.probe.initiate());
    await advance(500);
    await advance(1000);
    await vi.waitFor(() => expect(store.getState().loginInfo.accessToken).toBe('a2'));
    await probe;
    expect(seen.filter((path) => path === '/api/accounts/token/refresh/')).toHaveLength(1);
    expect(store.getState().loginInfo.accessToken).toBe('a2');
  });
});
