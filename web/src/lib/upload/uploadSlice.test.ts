import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import {
  ESTIMATE_MIN_ELAPSED_MS,
  remainingLabel,
  selectRemainingSeconds,
  selectUploadError,
  selectUploadFraction,
  selectUploadProgress,
  selectUploadStatus,
  uploadFulfilled,
  uploadPending,
  uploadProgressed,
  uploadReducer,
  uploadRejected,
  uploadRemoved,
  uploadRetrying,
  uploadsReset,
  type UploadState,
} from './uploadSlice';

const newStore = () => configureStore({ reducer: { upload: uploadReducer } });
const lists = (s: UploadState) => ({ pending: s.pending, rejected: s.rejected, fulfilled: s.fulfilled });

describe('upload states (spec §4)', () => {
  it('setting one state removes the file from the other two', () => {
    const store = newStore();
    store.dispatch(uploadPending('a'));
    store.dispatch(uploadPending('b'));
    expect(lists(store.getState().upload)).toEqual({ pending: ['a', 'b'], rejected: [], fulfilled: [] });

    store.dispatch(uploadRejected({ id: 'a', reason: 'hash mismatch' }));
    expect(lists(store.getState().upload)).toEqual({ pending: ['b'], rejected: ['a'], fulfilled: [] });
    expect(selectUploadError(store.getState(), 'a')).toBe('hash mismatch');

    store.dispatch(uploadFulfilled('b'));
    store.dispatch(uploadPending('a')); // retake
    expect(lists(store.getState().upload)).toEqual({ pending: ['a'], rejected: [], fulfilled: ['b'] });
    expect(selectUploadError(store.getState(), 'a')).toBeUndefined();

    store.dispatch(uploadFulfilled('a'));
    store.dispatch(uploadFulfilled('a'));
    expect(lists(store.getState().upload)).toEqual({ pending: [], rejected: [], fulfilled: ['b', 'a'] });

    for (const [id, status] of [['a', 'fulfilled'], ['b', 'fulfilled'], ['c', undefined]] as const) {
      expect(selectUploadStatus(store.getState(), id)).toBe(status);
    }
  });

  it('keeps progress only while pending, and a new attempt starts it afresh', () => {
    const store = newStore();
    store.dispatch(uploadProgressed({ id: 'a', loaded: 10, total: 100, at: 0 }));
    expect(selectUploadProgress(store.getState(), 'a')).toBeUndefined();

    store.dispatch(uploadPending('a'));
    store.dispatch(uploadProgressed({ id: 'a', loaded: 10, total: 100, at: 1000 }));
    store.dispatch(uploadProgressed({ id: 'a', loaded: 40, total: 100, at: 2000 }));
    expect(selectUploadProgress(store.getState(), 'a')).toEqual({ loaded: 40, total: 100, startedAt: 1000, startedLoaded: 10, updatedAt: 2000 });
    expect(selectUploadFraction(store.getState(), 'a')).toBe(0.4);

    store.dispatch(uploadRejected({ id: 'a' }));
    expect(selectUploadProgress(store.getState(), 'a')).toBeUndefined();
    expect(selectUploadError(store.getState(), 'a')).toBeUndefined();
    store.dispatch(uploadProgressed({ id: 'a', loaded: 50, total: 100, at: 2500 })); // a late event
    expect(selectUploadProgress(store.getState(), 'a')).toBeUndefined();

    store.dispatch(uploadPending('a'));
    expect(selectUploadProgress(store.getState(), 'a')).toBeUndefined();
    store.dispatch(uploadProgressed({ id: 'a', loaded: 0, total: 100, at: 9000 }));
    expect(selectUploadProgress(store.getState(), 'a')?.startedAt).toBe(9000);
  });

  it('stamps progress with the time when none is given', () => {
    const store = newStore();
    store.dispatch(uploadPending('a'));
    const before = Date.now();
    store.dispatch(uploadProgressed({ id: 'a', loaded: 1, total: 2 }));
    const p = selectUploadProgress(store.getState(), 'a');
    expect(p?.startedAt).toBeGreaterThanOrEqual(before);
    expect(p?.startedAt).toBeLessThanOrEqual(Date.now());
  });

  it('removes a file, or everything', () => {
    const store = newStore();
    store.dispatch(uploadPending('a'));
    store.dispatch(uploadProgressed({ id: 'a', loaded: 1, total: 2, at: 0 }));
    store.dispatch(uploadRejected({ id: 'b', reason: 'x' }));
    store.dispatch(uploadRemoved('a'));
    store.dispatch(uploadRemoved('b'));
    expect(store.getState().upload).toEqual({ pending: [], rejected: [], fulfilled: [], progress: {}, errors: {}, retries: {}, folders: {} });
    store.dispatch(uploadFulfilled('c'));
    store.dispatch(uploadsReset());
    expect(store.getState().upload).toEqual({ pending: [], rejected: [], fulfilled: [], progress: {}, errors: {}, retries: {}, folders: {} });
  });
});

describe('remaining time estimate', () => {
  const at = (loaded: number, ms: number) => uploadProgressed({ id: 'f', loaded, total: 1_000_000, at: ms });

  it("is undefined (row: 'Initializing...') before an estimate exists", () => {
    const store = newStore();
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
    store.dispatch(uploadPending('f'));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
    store.dispatch(at(0, 10_000));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
    store.dispatch(at(50_000, 10_000 + ESTIMATE_MIN_ELAPSED_MS - 1));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
    expect(remainingLabel(selectRemainingSeconds(store.getState(), 'f'))).toBe('Initializing...');
  });

  it('is undefined while no byte has moved since timing began', () => {
    const store = newStore();
    store.dispatch(uploadPending('f'));
    store.dispatch(at(0, 0));
    store.dispatch(at(0, 5000));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
  });

  it('divides the bytes left by the average rate of this attempt', () => {
    const store = newStore();
    store.dispatch(uploadPending('f'));
    store.dispatch(at(0, 0));
    store.dispatch(at(100_000, 2000)); // 50 kB/s, 900 kB left
    expect(selectRemainingSeconds(store.getState(), 'f')).toBe(18);
    expect(remainingLabel(selectRemainingSeconds(store.getState(), 'f'))).toBe('18s');
    store.dispatch(at(250_000, 4000)); // 62.5 kB/s, 750 kB left
    expect(selectRemainingSeconds(store.getState(), 'f')).toBe(12);
  });

  it('measures a resumed upload from where it resumed', () => {
    const store = newStore();
    store.dispatch(uploadPending('f'));
    store.dispatch(at(500_000, 0)); // finished parts from before the reload
    store.dispatch(at(510_000, 1000)); // 10 kB/s, 490 kB left
    expect(selectRemainingSeconds(store.getState(), 'f')).toBe(49);
  });

  it('reads in h m s for long uploads and is 0 once every byte is sent', () => {
    const store = newStore();
    store.dispatch(uploadPending('f'));
    store.dispatch(uploadProgressed({ id: 'f', loaded: 0, total: 2_000_000_000, at: 0 }));
    store.dispatch(uploadProgressed({ id: 'f', loaded: 1_000_000, total: 2_000_000_000, at: 1861 }));
    expect(remainingLabel(selectRemainingSeconds(store.getState(), 'f'))).toBe('1h 2m 1s');
    store.dispatch(uploadProgressed({ id: 'f', loaded: 2_000_000_000, total: 2_000_000_000, at: 3_700_000 }));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBe(0);
    expect(selectUploadFraction(store.getState(), 'f')).toBe(1);
  });

  it('is undefined once the file leaves pending', () => {
    const store = newStore();
    store.dispatch(uploadPending('f'));
    store.dispatch(at(0, 0));
    store.dispatch(at(100_000, 2000));
    store.dispatch(uploadFulfilled('f'));
    expect(selectRemainingSeconds(store.getState(), 'f')).toBeUndefined();
  });
});

describe('a retried upload (spec §4 row)', () => {
  it('stays pending, drops the failed attempt\'s progress and says which attempt follows until it can estimate', () => {
    const store = newStore();
    store.dispatch(uploadPending('a'));
    store.dispatch(uploadProgressed({ id: 'a', loaded: 10, total: 100, at: 0 }));
    store.dispatch(uploadRetrying({ id: 'a', attempt: 2, attempts: 4, reason: 'The file storage is not answering.' }));
    const state = store.getState();
    expect(selectUploadStatus(state, 'a')).toBe('pending');
    expect(selectUploadProgress(state, 'a')).toBeUndefined();
    const retry = state.upload.retries.a;
    expect(remainingLabel(selectRemainingSeconds(state, 'a'), retry)).toBe('Upload failed, retrying (attempt 2 of 4)...');
    // The new attempt's progress, once timed, gives the remaining time again.
    store.dispatch(uploadProgressed({ id: 'a', loaded: 0, total: 100, at: 0 }));
    store.dispatch(uploadProgressed({ id: 'a', loaded: 50, total: 100, at: 2000 }));
    const later = store.getState();
    expect(remainingLabel(selectRemainingSeconds(later, 'a'), later.upload.retries.a)).toBe('2s');
  });

  it('forgets the retry once the file is uploaded or rejected', () => {
    const store = newStore();
    store.dispatch(uploadRetrying({ id: 'a', attempt: 2, attempts: 4, reason: 'x' }));
    store.dispatch(uploadFulfilled('a'));
    expect(store.getState().upload.retries).toEqual({});
    store.dispatch(uploadRetrying({ id: 'b', attempt: 4, attempts: 4, reason: 'x' }));
    store.dispatch(uploadRejected({ id: 'b', reason: 'The file storage is not answering.' }));
    expect(store.getState().upload.retries).toEqual({});
    expect(selectUploadError(store.getState(), 'b')).toBe('The file storage is not answering.');
  });
});
