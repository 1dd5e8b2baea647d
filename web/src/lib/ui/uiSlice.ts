//! UI state. `ui` is persisted (preferences that should survive a reload); the snackbar lives in
//! its own slice and is never persisted (spec §3 "Persisted slices").
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type Severity = 'error' | 'success' | 'info' | 'warning';

export interface SnackbarState {
  isShown: boolean;
  message: string;
  type: Severity;
  actionText?: string;
  messageVariant?: string;
  /** Bumped on every show so the same message restarts its timer. */
  key: number;
}

/**
 * The names of the dialogs the payments screens open through `ui.dialog` (spec §4 "Failed-payment
 * dialog": open when the current dialog name equals the failed-payment value; spec §8
 * "Insufficient funds"; the top-up stored account dialog its 'Change Payment Method' opens).
 */
export const DIALOG = {
  failedPayment: 'failed-payment',
  insufficientFunds: 'insufficient-funds',
  topUpStoredAccount: 'top-up-stored-account',
} as const;

export interface UiState {
  /** The name of the dialog that is open, if any (spec §4 "Failed-payment dialog"). */
  dialog: string | null;
  /** Intro screens the user asked not to see again. */
  hiddenIntros: string[];
  // account: the Date and Time setting.
  /**
   * The IANA time zone dates are shown in, chosen on /date-and-time; null (or absent, in a state
   * persisted before the setting existed) means the device's own zone.
   */
  timeZone?: string | null;
}

export const uiSlice = createSlice({
  name: 'ui',
  initialState: { dialog: null, hiddenIntros: [] } as UiState,
  reducers: {
    dialogOpened(state, action: PayloadAction<string>) {
      state.dialog = action.payload;
    },
    dialogClosed(state) {
      state.dialog = null;
    },
    introHidden(state, action: PayloadAction<string>) {
      if (!state.hiddenIntros.includes(action.payload)) state.hiddenIntros.push(action.payload);
    },
    /** A zone name, or null for the device's zone (account). */
    timeZoneChosen(state, action: PayloadAction<string | null>) {
      state.timeZone = action.payload;
    },
  },
});

export const snackbarSlice = createSlice({
  name: 'snackbar',
  initialState: { isShown: false, message: '', type: 'info', key: 0 } as SnackbarState,
  reducers: {
    showSnackbar(state, action: PayloadAction<{ message: string; type: Severity; actionText?: string; messageVariant?: string }>) {
      return { ...action.payload, isShown: true, key: state.key + 1 };
    },
    hideSnackbar(state) {
      state.isShown = false;
    },
  },
});

export const { dialogOpened, dialogClosed, introHidden, timeZoneChosen } = uiSlice.actions;

/** The chosen display time zone, or null for the device's own (account). */
export const selectTimeZone = (state: { ui: UiState }): string | null => state.ui.timeZone ?? null;
export const { showSnackbar, hideSnackbar } = snackbarSlice.actions;
