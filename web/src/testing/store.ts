//! A store for a test: the app's one reducer and the API middleware, signed in unless asked
//! otherwise. Nothing is persisted, and each call makes a fresh store.
import { configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api/api';
import { tokensReceived } from '../lib/session/loginInfoSlice';
import { rootReducer, type RootState } from '../lib/store/rootReducer';

export interface TestStoreOptions {
  /** Signed in with the tokens 'a' and 'r' (the default), or anonymous. */
  signedIn?: boolean;
  preloadedState?: Partial<RootState>;
}

export function makeTestStore({ signedIn = true, preloadedState }: TestStoreOptions = {}) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware),
  });
  if (signedIn) store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  return store;
}

export type TestStore = ReturnType<typeof makeTestStore>;
