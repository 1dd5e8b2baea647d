//! The store: the API cache, the persisted `loginInfo`, `ui` and `lastKnown` slices, and the
//! snackbar.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, persistStore, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { api } from '../lib/api/api';
import { followTimeZoneSetting } from '../lib/format/timeZone';
import { lastKnownSlice } from '../lib/offline/lastKnownSlice';
import { loginInfoSlice, loggedOut } from '../lib/session/loginInfoSlice';
import { mirrorSharingDraft, sharingDraftSlice } from '../lib/sharing/draft';
import { snackbarSlice, uiSlice } from '../lib/ui/uiSlice';
import { uploadSlice } from '../lib/upload/uploadSlice';

const reducer = combineReducers({
  [api.reducerPath]: api.reducer,
  loginInfo: loginInfoSlice.reducer,
  ui: uiSlice.reducer,
  snackbar: snackbarSlice.reducer,
  // Not persisted (spec §3): the captures themselves wait in the offline store.
  upload: uploadSlice.reducer,
  // Persisted: My Files shows the last known folders offline.
  lastKnown: lastKnownSlice.reducer,
  // Not persisted (spec §3); mirrored to sessionStorage so a reload keeps the share being made.
  sharingDraft: sharingDraftSlice.reducer,
});

export const PERSIST_KEY = 'evidentia';

/** localStorage behind redux-persist's async storage interface. */
const storage = {
  getItem: (key: string) => Promise.resolve(window.localStorage.getItem(key)),
  setItem: (key: string, value: string) => Promise.resolve(window.localStorage.setItem(key, value)),
  removeItem: (key: string) => Promise.resolve(window.localStorage.removeItem(key)),
};

const persisted = persistReducer({ key: PERSIST_KEY, storage, whitelist: ['loginInfo', 'ui', 'lastKnown'] }, reducer);

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
export type RootState = ReturnType<typeof reducer>;
export type AppDispatch = AppStore['dispatch'];

export function logOut(dispatch: AppDispatch) {
  dispatch(loggedOut());
  dispatch(api.util.resetApiState());
}
