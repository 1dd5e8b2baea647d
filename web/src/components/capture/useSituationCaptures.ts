//! What every capture screen that stores on the device shares (/evidence, /organization-evidence):
//! the rows of one situation (the captures stored on the device, and those uploaded while the
//! screen is open), their previews, sending what waits when online, and storing a new recording
//! before its upload starts. A capture leaves the offline store only once uploaded, so a lost
//! network, a reload or a closed tab loses nothing.
import { useCallback, useEffect, useState } from 'react';
import { useAppDispatch } from '../../lib/store/hooks';
import { sha256Hex } from '../../lib/hash/sha256';
import { captureName, MEDIA_TYPE_OF } from '../../lib/media/capture';
import type { LocationState } from '../../lib/media/useLocation';
import { offlineStore, OfflineStoreFullError, type CaptureInfo, type StoredCapture } from '../../lib/offline/offlineStore';
import type { UploadQueue } from '../../lib/upload/queue';
import { useUploadQueue } from '../../lib/upload/uploadQueueContext';
import { uploadRemoved } from '../../lib/upload/uploadSlice';
import type { Recording } from './Recorder';

/** What a capture screen says when the device refused to keep a file. */
export const NOT_SAVED_MESSAGE = 'The file could not be saved on this device. Free some space and try again.';

/** Where a recording goes: its situation and, when known, its folder, rental section, replaced item or organization step. */
export interface CaptureTarget {
  situation: string;
  /** The situation is the tab's own capture session, made up on the device (no folder's id). */
  newSituation?: boolean;
  folderId?: string;
  section?: string;
  retakeOf?: string;
  stepId?: string;
}

function coordinates(location: LocationState) {
  return location.status === 'located' ? { latitude: location.latitude, longitude: location.longitude } : {};
}

/** The sentence for a failed `storeRecording`. */
export function notSavedMessage(error: unknown): string {
  return error instanceof OfflineStoreFullError ? error.message : NOT_SAVED_MESSAGE;
}

/**
 * Stores `recording` for `target` (offline, the store's limit applies; online the file is kept only
 * until it is sent) and, online, starts its upload on `uploadQueue` (the app's, `useUploadQueue()`).
 * Resolves with the capture's id; rejects when the device refused it (see `notSavedMessage`).
 */
export async function storeRecording(
  recording: Recording,
  target: CaptureTarget,
  location: LocationState,
  uploadQueue: Pick<UploadQueue, 'upload'>,
): Promise<string> {
  const id = crypto.randomUUID();
  const sha256 = await sha256Hex(recording.blob);
  await offlineStore.addCapture(
    {
      id,
      situation: target.situation,
      name: captureName(recording.mode, recording.capturedAt),
      mediaType: MEDIA_TYPE_OF[recording.mode],
      mimeType: recording.mimeType,
      size: recording.blob.size,
      sha256,
      capturedAt: recording.capturedAt.toISOString(),
      ...coordinates(location),
      ...(recording.durationSeconds !== undefined && { durationSeconds: recording.durationSeconds }),
      ...(target.folderId && { folderId: target.folderId }),
      ...(target.newSituation && { newSituation: true as const }),
      ...(target.section && { section: target.section }),
      ...(target.retakeOf && { retakeOf: target.retakeOf }),
      ...(target.stepId && { stepId: target.stepId }),
      blob: recording.blob,
    },
    { enforceLimit: !navigator.onLine },
  );
  if (navigator.onLine) void uploadQueue.upload(id);
  return id;
}

/** The rows and previews of `situation`, kept current with the offline store; online, what waits is sent. */
export function useSituationCaptures(situation: string | null | undefined, online: boolean) {
  const dispatch = useAppDispatch();
  const uploadQueue = useUploadQueue();
  const [rows, setRows] = useState<CaptureInfo[]>([]);
  const [previews, setPreviews] = useState<Record<string, Blob>>({});

  const apply = useCallback((stored: StoredCapture[]) => {
    setRows((current) => {
      const storedIds = new Set(stored.map((c) => c.id));
      // Keep rows that left the store because they were uploaded; add newly stored ones.
      const kept = current.filter((c) => storedIds.has(c.id) || uploadQueue.itemOf(c.id));
      const known = new Set(kept.map((c) => c.id));
      const added = stored.filter((c) => !known.has(c.id)).map(({ blob: _blob, ...info }) => info);
      return [...kept, ...added];
    });
    const photos = stored.filter((c) => c.mediaType === 'image');
    if (photos.length > 0) {
      setPreviews((current) => {
        const missing = photos.filter((c) => !(c.id in current));
        return missing.length === 0 ? current : { ...current, ...Object.fromEntries(missing.map((c) => [c.id, c.blob])) };
      });
    }
  }, [uploadQueue]);

  useEffect(() => {
    if (!situation) return undefined;
    let active = true;
    const load = () =>
      offlineStore.listBySituation(situation).then((stored) => {
        if (active) apply(stored);
      });
    void load();
    const unsubscribe = offlineStore.subscribe(() => void load());
    return () => {
      active = false;
      unsubscribe();
    };
  }, [situation, apply]);

  // Online, send what waits for this situation (resumed captures included).
  useEffect(() => {
    if (situation && online) void uploadQueue.uploadSituation(situation);
  }, [situation, online, uploadQueue]);

  const addPreview = useCallback((id: string, preview: Blob) => setPreviews((current) => ({ ...current, [id]: preview })), []);
  /** Stops a capture's upload and forgets it (a retake of a failed row). */
  const discard = useCallback(
    async (id: string) => {
      uploadQueue.cancel(id);
      await offlineStore.removeCapture(id);
      dispatch(uploadRemoved(id));
      setRows((current) => current.filter((c) => c.id !== id));
    },
    [dispatch, uploadQueue],
  );

  return { rows, previews, addPreview, discard };
}
