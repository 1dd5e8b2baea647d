// spec §4 "Session", §8 (401, 5xx), §9 refresh retry wait: the base query against a mocked fetch.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginInfoSlice, tokensReceived } from '../session/loginInfoSlice';
import { snackbarSlice } from '../ui/uiSlice';
import { baseQuery, REFRESH_PATH } from './baseQuery';
import { SERVER_ERROR_MESSAGE } from './errors';

const ORIGIN = 'http://localhost';

// Node's Request refuses the app's relative '/api/...' URLs: resolve them against a test origin.
class RelativeRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, ORIGIN).href : input, init);
  }
}

function makeStore() {
  const store = configureStore({
    reducer: combineReducers({ loginInfo: loginInfoSlice.reducer, snackbar: snackbarSlice.reducer }),
  });
  store.dispatch(tokensReceived({ access: 'expired', refresh: 'r1' }));
  return store;
}

type Store = ReturnType<typeof makeStore>;

function call(store: Store, url: string, type: BaseQueryApi['type'] = 'query') {
  const api: BaseQueryApi = {
    signal: new AbortController().signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'probe',
    type,
  };
  return baseQuery(url, api, {});
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Seen {
  path: string;
  auth: string | null;
  body: string;
}

/** A fake gateway: `access-2` is the only valid token; a refresh with `r1` rotates to it. */
function gateway(options: { refreshSucceeds: boolean; refreshDelayMs?: number }) {
  const seen: Seen[] = [];
  const fetchMock = vi.fn(async (request: Request) => {
    const path = new URL(request.url).pathname;
    const body = request.method === 'POST' ? await request.text() : '';
    seen.push({ path, auth: request.headers.get('authorization'), body });
    if (path === `/api/${REFRESH_PATH}`) {
      await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs ?? 20));
      return options.refreshSucceeds
        ? json(200, { access: 'access-2', refresh: 'r2' })
        : json(401, { errors: [{ message: 'Token is invalid', code: 'token_not_valid' }] });
    }
    if (request.headers.get('authorization') !== 'Bearer access-2') {
      return json(401, { errors: [{ message: 'Token is invalid', code: 'token_not_valid' }] });
    }
    return json(200, { user_name: path, nested_list: [{ first_name: 'Ann' }] });
  });
  return { seen, fetchMock };
}

beforeEach(() => {
  vi.stubGlobal('Request', RelativeRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('base query', () => {
  it('refreshes the token exactly once for concurrent 401s, and every request is retried with it', async () => {
    const { seen, fetchMock } = gateway({ refreshSucceeds: true });
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();

    const results = await Promise.all(['a/', 'b/', 'c/'].map((url) => call(store, url)));

    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    const refreshes = seen.filter((s) => s.path === `/api/${REFRESH_PATH}`);
    expect(refreshes).toHaveLength(1);
    expect(JSON.parse(refreshes[0]?.body ?? '{}')).toEqual({ refresh: 'r1' });
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'access-2', refreshToken: 'r2' });
    for (const path of ['/api/a/', '/api/b/', '/api/c/']) {
      expect(seen.filter((s) => s.path === path).map((s) => s.auth)).toEqual(['Bearer expired', 'Bearer access-2']);
    }
  });

  it('makes a request sent while the refresh is under way wait for it instead of refreshing again', async () => {
    const { seen, fetchMock } = gateway({ refreshSucceeds: true, refreshDelayMs: 100 });
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();

    const first = call(store, 'first/');
    await vi.waitFor(() => {
      expect(seen.some((s) => s.path === `/api/${REFRESH_PATH}`)).toBe(true);
    });
    const late = await call(store, 'late/');
    await first;

    expect(late.error).toBeUndefined();
    expect(seen.filter((s) => s.path === `/api/${REFRESH_PATH}`)).toHaveLength(1);
    expect(seen.filter((s) => s.path === '/api/late/').map((s) => s.auth)).toEqual(['Bearer access-2']);
  });

  it('logs out when the refresh fails, without retrying the request', async () => {
    const { seen, fetchMock } = gateway({ refreshSucceeds: false });
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();

    const results = await Promise.all([call(store, 'a/'), call(store, 'b/')]);

    expect(results.map((r) => r.error?.status)).toEqual([401, 401]);
    expect(seen.filter((s) => s.path === `/api/${REFRESH_PATH}`)).toHaveLength(1);
    expect(store.getState().loginInfo).toEqual({ accessToken: null, refreshToken: null, accessFolderToken: null });
    expect(seen.filter((s) => s.path === '/api/a/')).toHaveLength(1);
  });

  it('answers a 401 refusing a shared folder token as it is: no refresh, the session stays', async () => {
    const refused = json(401, { errors: [{ message: 'Your access has ended. Open the link from your message again.', code: 'folder_token_invalid' }] });
    const fetchMock = vi.fn(async () => Promise.resolve(refused.clone()));
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();

    const result = await call(store, 'sharing/view/');

    expect(result.error?.status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'expired', refreshToken: 'r1' });
  });

  it('converts response keys to camelCase', async () => {
    const { fetchMock } = gateway({ refreshSucceeds: true });
    vi.stubGlobal('fetch', fetchMock);
    const store = makeStore();
    store.dispatch(tokensReceived({ access: 'access-2', refresh: 'r2' }));

    const result = await call(store, 'me/');

    expect(result.data).toEqual({ userName: '/api/me/', nestedList: [{ firstName: 'Ann' }] });
  });

  it.each([
    ['a JSON 500', () => json(500, { errors: [{ message: 'internal', code: 'internal' }] })],
    ['a plain-text 503 from the proxy', () => new Response('upstream connect error', { status: 503 })],
  ])('shows the generic message for %s', async (_label, respond) => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.resolve(respond())));
    const store = makeStore();

    await call(store, 'x/');

    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: SERVER_ERROR_MESSAGE });
  });

  it('takes the generic message away when a change tried again succeeds, not when a read does', async () => {
    const answers = [new Response('upstream connect error', { status: 503 }), json(200, { ok: true }), json(200, { ok: true })];
    vi.stubGlobal('fetch', vi.fn(async () => Promise.resolve(answers.shift())));
    const store = makeStore();
    store.dispatch(tokensReceived({ access: 'access-2', refresh: 'r2' }));

    await call(store, 'pay/', 'mutation');
    await call(store, 'list/', 'query');
    expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SERVER_ERROR_MESSAGE });

    await call(store, 'pay/', 'mutation');
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('leaves any other message up when a change succeeds', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.resolve(json(200, { ok: true }))));
    const store = makeStore();
    store.dispatch(tokensReceived({ access: 'access-2', refresh: 'r2' }));
    store.dispatch(snackbarSlice.actions.showSnackbar({ message: 'Card was added', type: 'success' }));

    await call(store, 'pay/', 'mutation');

    expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Card was added' });
  });

  it('shows no message for a client error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.resolve(json(400, { errors: [{ message: 'bad' }] }))));
    const store = makeStore();

    await call(store, 'x/');

    expect(store.getState().snackbar.isShown).toBe(false);
  });
});
