//! Runs the uploads of stored captures, one at a time per capture across tabs (Web Locks), with the
//! upload state of spec §4 in the store. A capture leaves the offline store only once its upload
//! has finished; until then a reload, a lost network or a closed tab leaves it waiting there.
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import type { OfflineStore } from '../offline/offlineStore';
import { situationFolderResolved, uploadFulfilled, uploadPending, uploadProgressed, uploadRejected, uploadRetrying } from './uploadSlice';
import { UploadError, uploadCapture, type ByteSender, type EvidenceTransport } from './uploader';

/** Waits before the automatic retries of a failure that may pass (network, 5xx, expired URL). */
export const RETRY_DELAYS_MS = [2000, 5000, 15000];
/** Attempts in all: the first and its retries. */
export const UPLOAD_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** What a failed attempt says to the user: an UploadError's sentence, never a bare status. */
export const UNEXPECTED_UPLOAD_FAILURE = 'The file could not be sent.';

export interface QueueDeps {
  store: OfflineStore;
  transport: EvidenceTransport;
  sender: ByteSender;
  dispatch: Dispatch<UnknownAction>;
  isOnline?: () => boolean;
  sleep?: (ms: number) => Promise<void>;
  /** Runs `work` holding an exclusive lock named `name`, or skips it (resolving false) when another tab holds it. */
  withLock?: (name: string, work: () => Promise<void>) => Promise<boolean>;
}

export interface UploadQueue {
  /** Uploads this capture unless it is already being uploaded; resolves with the item id, or undefined when it failed or was skipped. */
  upload(captureId: string): Promise<string | undefined>;
  /** Uploads every capture stored for `situation`, in the order stored, one after another. */
  uploadSituation(situation: string): Promise<void>;
  /** Stops an upload in progress (the capture stays stored). */
  cancel(captureId: string): void;
  /** Capture ids uploaded by this queue and their items. */
  itemOf(captureId: string): string | undefined;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Web Locks where the browser has them: a second tab skips a capture the first is sending. */
async function webLock(name: string, work: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) {
    await work();
    return true;
  }
  let ran = false;
  await locks.request(name, { ifAvailable: true }, async (lock) => {
    if (!lock) return;
    ran = true;
    await work();
  });
  return ran;
}

export function createUploadQueue(deps: QueueDeps): UploadQueue {
  const { store, transport, sender, dispatch } = deps;
  const isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const sleep = deps.sleep ?? defaultSleep;
  const withLock = deps.withLock ?? webLock;
  const running = new Map<string, { controller: AbortController; done: Promise<string | undefined> }>();
  const items = new Map<string, string>();
  // The folder of each situation once resolved: the service finds a folder by its id only, so a
  // new situation's folder (made with the situation as client_id) is known by what it answered.
  const folders = new Map<string, string>();

  async function attempt(captureId: string, signal: AbortSignal): Promise<string | undefined> {
    for (let tries = 0; ; tries += 1) {
      const stored = await store.getCapture(captureId);
      if (!stored) return items.get(captureId);
      const known = stored.folderId ? undefined : folders.get(stored.situation);
      const capture = known ? { ...stored, folderId: known } : stored;
      // A retry keeps the row's 'retrying' state (set below) until its own progress can be timed.
      if (tries === 0) dispatch(uploadPending(captureId));
      try {
        const itemId = await uploadCapture(capture, {
          transport,
          sender,
          signal,
          onProgress: (loaded, total) => dispatch(uploadProgressed({ id: captureId, loaded, total })),
          onFolder: (folderId) => {
            if (folders.get(capture.situation) === folderId) return;
            folders.set(capture.situation, folderId);
            dispatch(situationFolderResolved({ situation: capture.situation, folderId }));
          },
        });
        items.set(captureId, itemId);
        await store.removeCapture(captureId);
        dispatch(uploadFulfilled(captureId));
        return itemId;
      } catch (error) {
        if (signal.aborted) {
          dispatch(uploadRejected({ id: captureId, reason: 'The upload was stopped.' }));
          return undefined;
        }
        const retryable = error instanceof UploadError ? error.retryable : true;
        const reason = error instanceof UploadError ? error.message : UNEXPECTED_UPLOAD_FAILURE;
        if (!retryable || tries >= RETRY_DELAYS_MS.length || !isOnline()) {
          dispatch(uploadRejected({ id: captureId, reason }));
          return undefined;
        }
        dispatch(uploadRetrying({ id: captureId, attempt: tries + 2, attempts: UPLOAD_ATTEMPTS, reason }));
        await sleep(RETRY_DELAYS_MS[tries] ?? 0);
        if (signal.aborted || !isOnline()) {
          dispatch(uploadRejected({ id: captureId, reason }));
          return undefined;
        }
      }
    }
  }

  const queue: UploadQueue = {
    upload(captureId) {
      const current = running.get(captureId);
      if (current) return current.done;
      const controller = new AbortController();
      const done = (async () => {
        let result: string | undefined;
        const ran = await withLock(`evidentia-upload:${captureId}`, async () => {
          result = await attempt(captureId, controller.signal);
        });
        return ran ? result : undefined;
      })().finally(() => running.delete(captureId));
      running.set(captureId, { controller, done });
      return done;
    },

    async uploadSituation(situation) {
      const captures = await store.listBySituation(situation);
      for (const capture of captures) {
        if (!isOnline()) return;
        await queue.upload(capture.id);
      }
    },

    cancel(captureId) {
      running.get(captureId)?.controller.abort(new DOMException('Stopped', 'AbortError'));
    },

    itemOf(captureId) {
      return items.get(captureId);
    },
  };
  return queue;
}
