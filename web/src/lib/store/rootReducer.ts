//! The app's one reducer: the API cache and every slice. `app/store.ts` persists part of it and
//! makes the app's store; tests make their own stores from it (`src/testing`).
import { combineReducers } from '@reduxjs/toolkit';
import { api } from '../api/api';
import { lastKnownSlice } from '../offline/lastKnownSlice';
import { loginInfoSlice } from '../session/loginInfoSlice';
import { sharingDraftSlice } from '../sharing/draft';
import { snackbarSlice, uiSlice } from '../ui/uiSlice';
import { uploadSlice } from '../upload/uploadSlice';

export const rootReducer = combineReducers({
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

export type RootState = ReturnType<typeof rootReducer>;
