//! The offline store of spec §3: captures that wait on the device until they can upload, in an
//! IndexedDB database named for the product. The `evidences` map holds, per situation, the data
//! list of its captures; the total of the list lengths is kept as a count beside it.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { z } from 'zod';
import type { storedCaptureSchema } from './captureSchema';
import { formatFileSize } from '../format/format';

export const OFFLINE_DB_NAME = 'evidentia';
const DB_VERSION = 1;

/**
 * Spec §9 'Offline store size 100000000': the most bytes of media the offline store holds, the
 * sum of its captures' sizes. Adding a capture that would take the total above it is refused with
 * OfflineStoreFullError; the capture is not stored (the screen tells the user to go online).
 * The browser's own quota can still refuse earlier: that surfaces as IndexedDB's QuotaExceededError.
 */
export const OFFLINE_STORE_MAX_BYTES = 100_000_000;

export { MEDIA_TYPES, type MediaType } from './mediaTypes';

export type StoredCapture = z.infer<typeof storedCaptureSchema>;
/** A capture's entry in its situation's data list: everything but the bytes. */
export type CaptureInfo = Omit<StoredCapture, 'blob'>;

/** An entry of the evidences map. `order` places situations by when they were first stored. */
interface EvidenceEntry {
  situation: string;
  order: number;
  data: CaptureInfo[];
}

interface Totals {
  /** The total of the data lists' lengths. */
  count: number;
  /** The total of the captures' sizes. */
  bytes: number;
  nextOrder: number;
}

interface EvidentiaDB extends DBSchema {
  evidences: { key: string; value: EvidenceEntry };
  /** The bytes, apart from the lists, so adding a capture never rewrites its neighbours' bytes. */
  blobs: { key: string; value: { id: string; situation: string; blob: Blob } };
  meta: { key: 'totals'; value: Totals };
}

type StoreName = 'evidences' | 'blobs' | 'meta';
const STORES: StoreName[] = ['evidences', 'blobs', 'meta'];
type WriteTx = IDBPTransaction<EvidentiaDB, StoreName[], 'readwrite'>;

const EMPTY_TOTALS: Totals = { count: 0, bytes: 0, nextOrder: 0 };

export class OfflineStoreFullError extends Error {
  readonly storedBytes: number;
  readonly addedBytes: number;

  constructor(storedBytes: number, addedBytes: number) {
    super(
      `Not enough room for offline files: adding ${formatFileSize(addedBytes)} to the ${formatFileSize(storedBytes)} ` +
        `already waiting would pass the limit of ${formatFileSize(OFFLINE_STORE_MAX_BYTES)}. Upload them when online first.`,
    );
    this.name = 'OfflineStoreFullError';
    this.storedBytes = storedBytes;
    this.addedBytes = addedBytes;
  }
}

export class DuplicateCaptureError extends Error {
  constructor(id: string) {
    super(`A capture with id ${id} is already stored offline.`);
    this.name = 'DuplicateCaptureError';
  }
}

export interface OfflineStore {
  /**
   * Stores a capture at the end of its situation's list. Throws ZodError, OfflineStoreFullError or
   * DuplicateCaptureError. `enforceLimit: false` lifts the OFFLINE_STORE_MAX_BYTES check: a capture
   * made online is kept here only until its upload finishes, so a reload can resume it, and the
   * limit is for what waits for the network (docs/decisions.md).
   */
  addCapture(capture: StoredCapture, options?: { enforceLimit?: boolean }): Promise<void>;
  /** Removes a capture and its bytes; false when it was not stored. A list left empty leaves the map. */
  removeCapture(id: string): Promise<boolean>;
  /** A situation's captures with their bytes, in the order they were stored. */
  listBySituation(situation: string): Promise<StoredCapture[]>;
  /** One capture with its bytes, or undefined. */
  getCapture(id: string): Promise<StoredCapture | undefined>;
  /** The situation stored first among those with captures waiting (the banner's Continue), or undefined. */
  firstSituation(): Promise<string | undefined>;
  /** The count: the total of the data lists' lengths. */
  count(): Promise<number>;
  /** The bytes stored, bounded by OFFLINE_STORE_MAX_BYTES. */
  storedBytes(): Promise<number>;
  /** Empties the store. */
  clear(): Promise<void>;
  /** Called after every change made through this store (this tab only); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Closes the connection; the next call opens it again. */
  close(): Promise<void>;
}

export function createOfflineStore(name: string = OFFLINE_DB_NAME): OfflineStore {
  let connection: Promise<IDBPDatabase<EvidentiaDB>> | undefined;
  const listeners = new Set<() => void>();

  function db(): Promise<IDBPDatabase<EvidentiaDB>> {
    connection ??= openDB<EvidentiaDB>(name, DB_VERSION, {
      upgrade(database) {
        database.createObjectStore('evidences', { keyPath: 'situation' });
        database.createObjectStore('blobs', { keyPath: 'id' });
        database.createObjectStore('meta').put({ ...EMPTY_TOTALS }, 'totals');
      },
      // A newer version of the app wants to upgrade: let it, and reopen on the next call.
      blocking() {
        void connection?.then((open) => open.close());
        connection = undefined;
      },
      terminated() {
        connection = undefined;
      },
    }).catch((error: unknown) => {
      connection = undefined;
      throw error;
    });
    return connection;
  }

  function changed() {
    for (const listener of listeners) listener();
  }

  /** Runs `work` in one read-write transaction over every store: all of it is written, or none. */
  async function write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = (await db()).transaction(STORES, 'readwrite');
    try {
      const result = await work(tx);
      await tx.done;
      return result;
    } catch (error) {
      tx.done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished or aborted.
      }
      throw error;
    }
  }

  const totalsOf = async (tx: WriteTx) => (await tx.objectStore('meta').get('totals')) ?? { ...EMPTY_TOTALS };

  return {
    async addCapture(capture, options = {}) {
      const enforceLimit = options.enforceLimit ?? true;
      const { storedCaptureSchema } = await import('./captureSchema');
      const { blob, ...info } = storedCaptureSchema.parse(capture);
      await write(async (tx) => {
        const totals = await totalsOf(tx);
        if (await tx.objectStore('blobs').getKey(info.id)) throw new DuplicateCaptureError(info.id);
        if (enforceLimit && totals.bytes + info.size > OFFLINE_STORE_MAX_BYTES) throw new OfflineStoreFullError(totals.bytes, info.size);
        const evidences = tx.objectStore('evidences');
        const existing = await evidences.get(info.situation);
        const entry = existing ?? { situation: info.situation, order: totals.nextOrder, data: [] };
        entry.data.push(info);
        const next: Totals = {
          count: totals.count + 1,
          bytes: totals.bytes + info.size,
          nextOrder: existing ? totals.nextOrder : totals.nextOrder + 1,
        };
        await Promise.all([
          evidences.put(entry),
          tx.objectStore('blobs').put({ id: info.id, situation: info.situation, blob }),
          tx.objectStore('meta').put(next, 'totals'),
        ]);
      });
      changed();
    },

    async removeCapture(id) {
      const removed = await write(async (tx) => {
        const stored = await tx.objectStore('blobs').get(id);
        if (!stored) return false;
        const evidences = tx.objectStore('evidences');
        const entry = await evidences.get(stored.situation);
        const info = entry?.data.find((c) => c.id === id);
        const totals = await totalsOf(tx);
        const writes: Promise<unknown>[] = [tx.objectStore('blobs').delete(id)];
        if (entry && info) {
          entry.data = entry.data.filter((c) => c.id !== id);
          writes.push(entry.data.length > 0 ? evidences.put(entry) : evidences.delete(entry.situation));
          writes.push(
            tx.objectStore('meta').put(
              { ...totals, count: Math.max(0, totals.count - 1), bytes: Math.max(0, totals.bytes - info.size) },
              'totals',
            ),
          );
        }
        await Promise.all(writes);
        return true;
      });
      if (removed) changed();
      return removed;
    },

    async listBySituation(situation) {
      const tx = (await db()).transaction(['evidences', 'blobs'], 'readonly');
      const entry = await tx.objectStore('evidences').get(situation);
      const blobs = await Promise.all((entry?.data ?? []).map((info) => tx.objectStore('blobs').get(info.id)));
      await tx.done;
      return (entry?.data ?? []).flatMap((info, i) => {
        const stored = blobs[i];
        return stored ? [{ ...info, blob: stored.blob }] : [];
      });
    },

    async getCapture(id) {
      const tx = (await db()).transaction(['evidences', 'blobs'], 'readonly');
      const stored = await tx.objectStore('blobs').get(id);
      const entry = stored ? await tx.objectStore('evidences').get(stored.situation) : undefined;
      await tx.done;
      const info = entry?.data.find((c) => c.id === id);
      return stored && info ? { ...info, blob: stored.blob } : undefined;
    },

    async firstSituation() {
      const entries = await (await db()).getAll('evidences');
      let first: EvidenceEntry | undefined;
      for (const entry of entries) {
        if (entry.data.length > 0 && (!first || entry.order < first.order)) first = entry;
      }
      return first?.situation;
    },

    async count() {
      return ((await (await db()).get('meta', 'totals')) ?? EMPTY_TOTALS).count;
    },

    async storedBytes() {
      return ((await (await db()).get('meta', 'totals')) ?? EMPTY_TOTALS).bytes;
    },

    async clear() {
      await write(async (tx) => {
        await Promise.all([
          tx.objectStore('evidences').clear(),
          tx.objectStore('blobs').clear(),
          tx.objectStore('meta').put({ ...EMPTY_TOTALS }, 'totals'),
        ]);
      });
      changed();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    async close() {
      const open = connection;
      connection = undefined;
      if (open) (await open).close();
    },
  };
}

/** The app's store, database 'evidentia' (opened on first use). */
export const offlineStore = createOfflineStore();
export const { addCapture, removeCapture, getCapture, listBySituation, firstSituation, count, storedBytes, clear } = offlineStore;
