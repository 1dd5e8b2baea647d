//! The share being put together (what, which copy, to whom) across /share-files, /type-of-copy,
//! /who-you-want-to-share and /checkout. Not a persisted slice (spec §3 persists only loginInfo
//! and ui), but mirrored to sessionStorage so a reload on any of those screens, checkout included,
//! keeps it; a new tab or a closed one starts again. It lives in lib because checkout pays for it.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type CopyType = 'authenticated' | 'unauthenticated';

export type DraftRecipient = { email: string } | { phoneNumber: { countryCode: string; nationalNumber: string } };

export interface SharingDraft {
  /** The folder shared; null when no share is being put together. */
  folderId: string | null;
  /** The whole folder, or only `itemIds`. */
  wholeFolder: boolean;
  itemIds: string[];
  copyType: CopyType | null;
  recipients: DraftRecipient[];
}

export const SESSION_KEY = 'evidentia:sharing-draft';

/** At most this many recipients per share (the sharing contract: 1 to 20). */
export const MAX_RECIPIENTS = 20;

export const EMPTY_DRAFT: SharingDraft = { folderId: null, wholeFolder: true, itemIds: [], copyType: null, recipients: [] };

const isString = (v: unknown): v is string => typeof v === 'string';

function isRecipient(value: unknown): value is DraftRecipient {
  if (!value || typeof value !== 'object') return false;
  if ('email' in value) return isString(value.email);
  if (!('phoneNumber' in value) || !value.phoneNumber || typeof value.phoneNumber !== 'object') return false;
  const phone = value.phoneNumber as Record<string, unknown>;
  return isString(phone.countryCode) && isString(phone.nationalNumber);
}

/** A draft read back from storage, or null when the text is not one (an older shape, tampering). */
export function parseDraft(text: string | null): SharingDraft | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const d = value as Record<string, unknown>;
  const ok =
    (d.folderId === null || isString(d.folderId)) &&
    typeof d.wholeFolder === 'boolean' &&
    Array.isArray(d.itemIds) &&
    d.itemIds.every(isString) &&
    (d.copyType === null || d.copyType === 'authenticated' || d.copyType === 'unauthenticated') &&
    Array.isArray(d.recipients) &&
    d.recipients.every(isRecipient);
  return ok ? (d as unknown as SharingDraft) : null;
}

function sessionStore(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage blocked by the browser's settings: the draft lives in memory only.
    return null;
  }
}

/** The draft this tab had before a reload, or an empty one. */
export function restoredDraft(): SharingDraft {
  return parseDraft(sessionStore()?.getItem(SESSION_KEY) ?? null) ?? EMPTY_DRAFT;
}

/** A recipient as the screens show it: the address, or '+1 5551234567'. */
export const recipientText = (r: DraftRecipient) => ('email' in r ? r.email : `${r.phoneNumber.countryCode} ${r.phoneNumber.nationalNumber}`);

export const sameRecipient = (a: DraftRecipient, b: DraftRecipient) =>
  'email' in a
    ? 'email' in b && a.email.trim().toLowerCase() === b.email.trim().toLowerCase()
    : 'phoneNumber' in b && a.phoneNumber.countryCode === b.phoneNumber.countryCode && a.phoneNumber.nationalNumber === b.phoneNumber.nationalNumber;

export const sharingDraftSlice = createSlice({
  name: 'sharingDraft',
  initialState: restoredDraft,
  reducers: {
    /** Opening the share screens of a folder: the draft of another folder is dropped. */
    shareStarted(state, action: PayloadAction<string>) {
      if (state.folderId !== action.payload) return { ...EMPTY_DRAFT, folderId: action.payload };
      return state;
    },
    itemsChosen(state, action: PayloadAction<{ wholeFolder: boolean; itemIds: string[] }>) {
      state.wholeFolder = action.payload.wholeFolder;
      state.itemIds = action.payload.wholeFolder ? [] : action.payload.itemIds;
    },
    copyTypeChosen(state, action: PayloadAction<CopyType>) {
      state.copyType = action.payload;
    },
    recipientAdded(state, action: PayloadAction<DraftRecipient>) {
      if (state.recipients.length >= MAX_RECIPIENTS || state.recipients.some((r) => sameRecipient(r, action.payload))) return;
      state.recipients.push(action.payload);
    },
    recipientRemoved(state, action: PayloadAction<number>) {
      state.recipients.splice(action.payload, 1);
    },
    /** The share was paid for (or abandoned): nothing is being put together any more. */
    shareDraftCleared() {
      return EMPTY_DRAFT;
    },
  },
});

export const { shareStarted, itemsChosen, copyTypeChosen, recipientAdded, recipientRemoved, shareDraftCleared } = sharingDraftSlice.actions;

type WithDraft = { sharingDraft: SharingDraft };

export const selectSharingDraft = (state: WithDraft) => state.sharingDraft;

/** The draft of `folderId` when one is being put together for it, else null. */
export const selectDraftOf = (folderId: string) => (state: WithDraft) => (state.sharingDraft.folderId === folderId ? state.sharingDraft : null);

/** True when the draft names everything checkout needs: items, a copy type and a recipient. */
export function isPayable(draft: SharingDraft | null): draft is SharingDraft & { copyType: CopyType } {
  return Boolean(draft && draft.folderId && draft.copyType && draft.recipients.length > 0 && (draft.wholeFolder || draft.itemIds.length > 0));
}

/**
 * Writes the draft to sessionStorage whenever it changes (and removes it once empty), so a reload
 * restores it through the slice's initial state.
 */
export function mirrorSharingDraft(store: { getState: () => WithDraft; subscribe: (listener: () => void) => unknown }): void {
  let last = store.getState().sharingDraft;
  store.subscribe(() => {
    const draft = store.getState().sharingDraft;
    if (draft === last) return;
    last = draft;
    const storage = sessionStore();
    try {
      if (draft.folderId === null) storage?.removeItem(SESSION_KEY);
      else storage?.setItem(SESSION_KEY, JSON.stringify(draft));
    } catch {
      // A full or blocked storage: the draft stays in memory for this page.
    }
  });
}
