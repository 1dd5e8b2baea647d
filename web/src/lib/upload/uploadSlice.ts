//! The upload state per file of spec §4 (pending, rejected or fulfilled; setting one removes the
//! file from the other two), its progress, and the remaining-time estimate of an upload row. Not
//! persisted (spec §3): mount it as `upload`, outside the persist whitelist; the files themselves
//! wait in lib/offline.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { formatRemaining } from '../format/format';

export type UploadStatus = 'pending' | 'rejected' | 'fulfilled';
const STATUSES: UploadStatus[] = ['pending', 'rejected', 'fulfilled'];

export interface UploadProgress {
  /** Bytes sent, and of how many. */
  loaded: number;
  total: number;
  /** When the first progress of this attempt arrived (epoch ms), and the bytes already sent then. */
  startedAt: number;
  /** A resumed upload starts with its finished parts counted, so the rate is measured from here. */
  startedLoaded: number;
  /** When the latest progress arrived (epoch ms). */
  updatedAt: number;
}

export interface UploadState {
  /** File ids by state; a file is in at most one. */
  pending: string[];
  rejected: string[];
  fulfilled: string[];
  /** Progress of pending files, by id. */
  progress: Record<string, UploadProgress>;
  /** Why a rejected file was rejected, when known. */
  errors: Record<string, string>;
  /** A pending file whose last attempt failed and that is being tried again, by id. */
  retries: Record<string, UploadRetry>;
  /** The folder id of each capture situation whose folder is known, by situation. */
  folders: Record<string, string>;
}

/** The next attempt of a failed upload, out of how many, and why the last one failed. */
export interface UploadRetry {
  attempt: number;
  attempts: number;
  reason: string;
}

export interface UploadRootState {
  upload: UploadState;
}

/** No estimate until this much of the upload has been timed: a first burst says little of the rate. */
export const ESTIMATE_MIN_ELAPSED_MS = 1000;
export const INITIALIZING_LABEL = 'Initializing...';

/** What a row says while a failed upload waits for, or starts, its next attempt. */
export const retryingLabel = ({ attempt, attempts }: Pick<UploadRetry, 'attempt' | 'attempts'>) =>
  `Upload failed, retrying (attempt ${attempt} of ${attempts})...`;

const initialState: UploadState = { pending: [], rejected: [], fulfilled: [], progress: {}, errors: {}, retries: {}, folders: {} };

function setStatus(state: UploadState, id: string, status: UploadStatus) {
  for (const s of STATUSES) {
    if (s !== status) state[s] = state[s].filter((x) => x !== id);
  }
  if (!state[status].includes(id)) state[status].push(id);
  delete state.progress[id];
  delete state.errors[id];
  delete state.retries[id];
}

export const uploadSlice = createSlice({
  name: 'upload',
  initialState,
  reducers: {
    /** A (new) attempt starts: pending, with no progress yet. */
    uploadPending(state, action: PayloadAction<string>) {
      setStatus(state, action.payload, 'pending');
    },
    /** Bytes sent so far. Ignored unless the file is pending (a late event of a finished attempt). */
    uploadProgressed: {
      reducer(state, action: PayloadAction<{ id: string; loaded: number; total: number; at: number }>) {
        const { id, loaded, total, at } = action.payload;
        if (!state.pending.includes(id)) return;
        const current = state.progress[id];
        state.progress[id] = current
          ? { ...current, loaded, total, updatedAt: at }
          : { loaded, total, startedAt: at, startedLoaded: loaded, updatedAt: at };
      },
      prepare(payload: { id: string; loaded: number; total: number; at?: number }) {
        return { payload: { ...payload, at: payload.at ?? Date.now() } };
      },
    },
    /**
     * The attempt failed and `attempt` (of `attempts`) follows: still pending, the failed attempt's
     * progress dropped, and the row says so until the new attempt can estimate its time.
     */
    uploadRetrying(state, action: PayloadAction<{ id: string } & UploadRetry>) {
      const { id, ...retry } = action.payload;
      setStatus(state, id, 'pending');
      state.retries[id] = retry;
    },
    /** A situation's captures go to this folder (made for it on the first upload, or found). */
    situationFolderResolved(state, action: PayloadAction<{ situation: string; folderId: string }>) {
      state.folders[action.payload.situation] = action.payload.folderId;
    },
    uploadRejected(state, action: PayloadAction<{ id: string; reason?: string }>) {
      const { id, reason } = action.payload;
      setStatus(state, id, 'rejected');
      if (reason !== undefined) state.errors[id] = reason;
    },
    uploadFulfilled(state, action: PayloadAction<string>) {
      setStatus(state, action.payload, 'fulfilled');
    },
    /** Forgets a file (deleted, or its row dismissed). */
    uploadRemoved(state, action: PayloadAction<string>) {
      const id = action.payload;
      for (const s of STATUSES) state[s] = state[s].filter((x) => x !== id);
      delete state.progress[id];
      delete state.errors[id];
      delete state.retries[id];
    },
    uploadsReset() {
      return initialState;
    },
  },
});

export const {
  uploadPending,
  uploadProgressed,
  uploadRetrying,
  situationFolderResolved,
  uploadRejected,
  uploadFulfilled,
  uploadRemoved,
  uploadsReset,
} = uploadSlice.actions;
export const uploadReducer = uploadSlice.reducer;

export function selectUploadStatus(state: UploadRootState, id: string): UploadStatus | undefined {
  return STATUSES.find((s) => state.upload[s].includes(id));
}

export function selectUploadProgress(state: UploadRootState, id: string): UploadProgress | undefined {
  return state.upload.progress[id];
}

/** The share sent, 0 to 1, of a pending file with progress; undefined otherwise. */
export function selectUploadFraction(state: UploadRootState, id: string): number | undefined {
  const p = state.upload.progress[id];
  if (!p) return undefined;
  return p.total > 0 ? Math.min(1, Math.max(0, p.loaded / p.total)) : 0;
}

/** The folder a capture situation's files went to, once an upload resolved it. */
export function selectSituationFolder(state: UploadRootState, situation: string): string | undefined {
  return state.upload.folders[situation];
}

export function selectUploadRetry(state: UploadRootState, id: string): UploadRetry | undefined {
  return state.upload.retries[id];
}

export function selectUploadError(state: UploadRootState, id: string): string | undefined {
  return state.upload.errors[id];
}

/**
 * Seconds left for a pending file, from its average rate since this attempt's first progress, as of
 * its latest progress; 0 once every byte is sent. Undefined before an estimate exists: no
 * progress, less than ESTIMATE_MIN_ELAPSED_MS timed, or no byte sent since timing began.
 */
export function selectRemainingSeconds(state: UploadRootState, id: string): number | undefined {
  const p = state.upload.progress[id];
  if (!p) return undefined;
  if (p.total > 0 && p.loaded >= p.total) return 0;
  const elapsed = p.updatedAt - p.startedAt;
  const sent = p.loaded - p.startedLoaded;
  if (elapsed < ESTIMATE_MIN_ELAPSED_MS || sent <= 0) return undefined;
  return ((p.total - p.loaded) * elapsed) / sent / 1000;
}

/**
 * The row's remaining-time text: h m s once estimated; before that 'Initializing...', or, for an
 * attempt after a failure, 'Upload failed, retrying (attempt n of m)...'.
 */
export function remainingLabel(seconds: number | undefined, retry?: UploadRetry): string {
  if (seconds !== undefined) return formatRemaining(seconds);
  return retry ? retryingLabel(retry) : INITIALIZING_LABEL;
}
