//! The session (persisted): spec §3 "Login state".
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface LoginInfo {
  accessToken: string | null;
  refreshToken: string | null;
  accessFolderToken: string | null;
}

const initialState: LoginInfo = { accessToken: null, refreshToken: null, accessFolderToken: null };

export const loginInfoSlice = createSlice({
  name: 'loginInfo',
  initialState,
  reducers: {
    tokensReceived(state, action: PayloadAction<{ access: string; refresh: string }>) {
      state.accessToken = action.payload.access;
      state.refreshToken = action.payload.refresh;
    },
    loggedOut() {
      return initialState;
    },
  },
});

export const { tokensReceived, loggedOut } = loginInfoSlice.actions;

export const selectSignedIn = (state: { loginInfo: LoginInfo }) => Boolean(state.loginInfo.accessToken);
