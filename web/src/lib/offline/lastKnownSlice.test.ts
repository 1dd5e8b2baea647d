// The last known folders and usage: kept from the server's answers, gone with the session.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/api';
import { evidenceApi } from '../api/evidence';
import { loggedOut, loginInfoSlice, tokensReceived } from '../session/loginInfoSlice';
import { lastKnownSlice, selectLastKnown } from './lastKnownSlice';

afterEach(() => vi.unstubAllGlobals());

function makeStore() {
  const store = configureStore({
    reducer: combineReducers({ [api.reducerPath]: api.reducer, loginInfo: loginInfoSlice.reducer, lastKnown: lastKnownSlice.reducer }),
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}

describe('last known folders', () => {
  it('keeps the folder list the server answered, with when, and forgets it on log out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(Response.json({ folders: [{ id: 'f1', name: 'Car rental', file_count: 1 }] }))),
    );
    vi.stubGlobal(
      'Request',
      class extends Request {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(typeof input === 'string' ? new URL(input, 'http://localhost').href : input, init);
        }
      },
    );
    const store = makeStore();
    await store.dispatch(evidenceApi.endpoints.folders.initiate());
    const kept = selectLastKnown(store.getState()).folders;
    expect(kept?.data).toEqual([{ id: 'f1', name: 'Car rental', fileCount: 1 }]);
    expect(Date.now() - Date.parse(kept?.at ?? '')).toBeLessThan(5000);
    store.dispatch(loggedOut());
    expect(selectLastKnown(store.getState())).toEqual({});
  });

  it('is empty in a store built without it', () => {
    expect(selectLastKnown({})).toEqual({});
  });
});
