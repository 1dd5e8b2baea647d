//! The last folder list and storage usage the server answered, kept on the device (persisted with
//! the session) so My Files can still show them offline or while the server cannot be reached.
//! Cleared when the user logs out, so another user of the device never sees them.
import { createSlice } from '@reduxjs/toolkit';
import { evidenceApi, type Folder, type StorageUsage } from '../api/evidence';
import { loggedOut } from '../session/loginInfoSlice';

export interface Snapshot<T> {
  data: T;
  /** When the server answered it (ISO 8601). */
  at: string;
}

export interface LastKnown {
  folders?: Snapshot<Folder[]>;
  storageUsage?: Snapshot<StorageUsage>;
}

const initialState: LastKnown = {};

const at = (meta: { fulfilledTimeStamp: number }) => new Date(meta.fulfilledTimeStamp).toISOString();

export const lastKnownSlice = createSlice({
  name: 'lastKnown',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(loggedOut, () => initialState)
      .addMatcher(evidenceApi.endpoints.folders.matchFulfilled, (state, action) => {
        state.folders = { data: action.payload, at: at(action.meta) };
      })
      .addMatcher(evidenceApi.endpoints.storageUsage.matchFulfilled, (state, action) => {
        state.storageUsage = { data: action.payload, at: at(action.meta) };
      });
  },
});

/** Reads the slice from any store, also one built without it (it is then empty). */
export const selectLastKnown = (state: { lastKnown?: LastKnown }): LastKnown => state.lastKnown ?? initialState;
