//! The store: the one reducer (`lib/store`) with the `loginInfo`, `ui` and `lastKnown` slices
//! persisted in localStorage, the API middleware, and what follows the state (the display time
//! zone, the sharing draft's mirror).
import { configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, persistStore, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { api } from '../lib/api/api';
import { followTimeZoneSetting } from '../lib/format/timeZone';
import { mirrorSharingDraft } from '../lib/sharing/draft';
import { rootReducer } from '../lib/store/rootReducer';

export const PERSIST_KEY = 'evidentia';

/** localStorage behind redux-persist's async storage interface. */
const storage = {
  getItem: (key: string) => Promise.resolve(window.localStorage.getItem(key)),
  setItem: (key: string, value: string) => Promise.resolve(window.localStorage.setItem(key, value)),
  removeItem: (key: string) => Promise.resolve(window.localStorage.removeItem(key)),
};

const persisted = persistReducer({ key: PERSIST_KEY, storage, whitelist: ['loginInfo', 'ui', 'lastKnown'] }, rootReducer);

export function makeStore() {
  const store = configureStore({
    reducer: persisted,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] } }).concat(api.middleware),
  });
  return store;
}

export const store = makeStore();
// account: every date is shown in the zone chosen on /date-and-time (or the device's).
followTimeZoneSetting(store);
mirrorSharingDraft(store);
export const persistor = persistStore(store);

export type AppStore = typeof store;
