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
    /** A shared folder's access token (spec §3 accessFolderToken), from a checked sharing code. */
    folderTokenReceived(state, action: PayloadAction<string>) {
      state.accessFolderToken = action.payload;
    },
    /** The folder token was refused (ended or revoked): forget it. */
    folderTokenCleared(state) {
      state.accessFolderToken = null;
    },
  },
});

export const { tokensReceived, loggedOut, folderTokenReceived, folderTokenCleared } = loginInfoSlice.actions;

export const selectSignedIn = (state: { loginInfo: LoginInfo }) => Boolean(state.loginInfo.accessToken);
