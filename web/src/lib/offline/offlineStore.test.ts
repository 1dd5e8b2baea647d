// @vitest-environment node
// Node's Blob survives IndexedDB's structured clone (fake-indexeddb); jsdom's does not.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import {
  createOfflineStore,
  DuplicateCaptureError,
  OFFLINE_DB_NAME,
  OFFLINE_STORE_MAX_BYTES,
  offlineStore,
  OfflineStoreFullError,
  type OfflineStore,
  type StoredCapture,
} from './offlineStore';

const HASH = 'a'.repeat(64);
let serial = 0;
const opened: OfflineStore[] = [];

function freshStore(): OfflineStore {
  serial += 1;
  const store = createOfflineStore(`evidentia-test-${serial}`);
  opened.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function capture(id: string, situation: string, content: string | Blob = `bytes of ${id}`): StoredCapture {
  const blob = typeof content === 'string' ? new Blob([content], { type: 'video/webm' }) : content;
  return {
    id,
    situation,
    name: `Capture ${id}`,
    mediaType: 'video',
    mimeType: 'video/webm',
    size: blob.size,
    sha256: HASH,
    capturedAt: '2026-11-21T14:07:00.000Z',
    latitude: 52.52,
    longitude: 13.405,
    durationSeconds: 12.5,
    blob,
  };
}

/** Something with a blob's size that is not a Blob. */
function notABlob(size: number): Blob {
  return { size } as unknown as Blob;
}

async function sumOfLists(store: OfflineStore, situations: string[]): Promise<number> {
  const lists = await Promise.all(situations.map((s) => store.listBySituation(s)));
  return lists.reduce((n, list) => n + list.length, 0);
}

describe('offline store (spec §3)', () => {
  it("is the database named for the product, 'evidentia'", async () => {
    expect(OFFLINE_DB_NAME).toBe('evidentia');
    await offlineStore.clear();
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain('evidentia');
    await offlineStore.close();
  });

  it('keeps captures per situation with their bytes and metadata, in the order stored', async () => {
    const store = freshStore();
    await store.addCapture(capture('1', 'home'));
    await store.addCapture({ ...capture('2', 'car'), mediaType: 'image', mimeType: 'image/jpeg', durationSeconds: undefined });
    await store.addCapture(capture('3', 'home'));

    const home = await store.listBySituation('home');
    expect(home.map((c) => c.id)).toEqual(['1', '3']);
    const first = home[0];
    expect(first).toMatchObject({ situation: 'home', name: 'Capture 1', mediaType: 'video', sha256: HASH, latitude: 52.52, durationSeconds: 12.5 });
    expect(await first?.blob.text()).toBe('bytes of 1');
    expect((await store.listBySituation('car'))[0]?.mediaType).toBe('image');
    expect(await store.listBySituation('nowhere')).toEqual([]);
  });

  it('keeps the count equal to the total of the list lengths on every add and remove', async () => {
    const store = freshStore();
    const situations = ['a', 'b', 'c'];
    expect(await store.count()).toBe(0);
    for (let i = 0; i < 9; i += 1) {
      await store.addCapture(capture(`c${i}`, situations[i % 3] ?? 'a'));
      expect(await store.count()).toBe(i + 1);
      expect(await sumOfLists(store, situations)).toBe(i + 1);
    }
    for (const id of ['c4', 'c0', 'c8']) {
      expect(await store.removeCapture(id)).toBe(true);
      expect(await store.count()).toBe(await sumOfLists(store, situations));
    }
    expect(await store.count()).toBe(6);
    expect(await store.removeCapture('c4')).toBe(false);
    expect(await store.removeCapture('never')).toBe(false);
    expect(await store.count()).toBe(6);
  });

  it('tracks stored bytes and refuses a capture that would pass the limit, storing nothing of it', async () => {
    expect(OFFLINE_STORE_MAX_BYTES).toBe(100_000_000);
    const store = freshStore();
    await store.addCapture(capture('small', 'home', 'x'.repeat(1000)));
    expect(await store.storedBytes()).toBe(1000);

    // Fill the store to the byte (a 100 MB blob held briefly in memory).
    const huge = new Blob([new Uint8Array(OFFLINE_STORE_MAX_BYTES - 1000)]);
    await store.addCapture(capture('fills', 'home', huge));
    expect(await store.storedBytes()).toBe(OFFLINE_STORE_MAX_BYTES);

    const error = await store.addCapture(capture('over', 'car', 'y')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineStoreFullError);
    expect((error as OfflineStoreFullError).message).toBe(
      'Not enough room for offline files: adding 1 B to the 100 MB already waiting would pass the limit of 100 MB. Upload them when online first.',
    );
    expect(await store.count()).toBe(2);
    expect(await store.listBySituation('car')).toEqual([]);
    expect(await store.firstSituation()).toBe('home');

    await store.removeCapture('fills');
    expect(await store.storedBytes()).toBe(1000);
    await store.addCapture(capture('over', 'car', 'y'));
    expect(await store.storedBytes()).toBe(1001);
  });

  it('lifts the limit for a capture made online, still counting its bytes', async () => {
    const store = freshStore();
    const huge = new Blob([new Uint8Array(OFFLINE_STORE_MAX_BYTES)]);
    await store.addCapture(capture('fills', 'home', huge));
    await expect(store.addCapture(capture('online', 'home', 'z'))).rejects.toBeInstanceOf(OfflineStoreFullError);
    await store.addCapture(capture('online', 'home', 'z'), { enforceLimit: false });
    expect(await store.storedBytes()).toBe(OFFLINE_STORE_MAX_BYTES + 1);
    expect(await store.count()).toBe(2);
  });

  it('gives one capture by id with its bytes and where it goes', async () => {
    const store = freshStore();
    await store.addCapture({ ...capture('a', 'home'), folderId: 'folder-1', section: 'interior', retakeOf: 'item-9' });
    const got = await store.getCapture('a');
    expect(got).toMatchObject({ id: 'a', situation: 'home', folderId: 'folder-1', section: 'interior', retakeOf: 'item-9' });
    expect(await got?.blob.text()).toBe('bytes of a');
    expect(await store.getCapture('missing')).toBeUndefined();
  });

  it('refuses a duplicate id without changing anything', async () => {
    const store = freshStore();
    await store.addCapture(capture('1', 'home'));
    await expect(store.addCapture(capture('1', 'car'))).rejects.toBeInstanceOf(DuplicateCaptureError);
    expect(await store.count()).toBe(1);
    expect(await store.listBySituation('car')).toEqual([]);
  });

  it('validates a capture before storing it', async () => {
    const store = freshStore();
    const good = capture('1', 'home');
    const bad: StoredCapture[] = [
      { ...good, id: '' },
      { ...good, situation: '' },
      { ...good, sha256: 'A'.repeat(64) },
      { ...good, sha256: 'abc' },
      { ...good, capturedAt: 'yesterday' },
      { ...good, latitude: 91 },
      { ...good, longitude: -181 },
      { ...good, durationSeconds: -1 },
      { ...good, size: good.size + 1 },
      { ...good, mediaType: 'document' as StoredCapture['mediaType'] },
      { ...good, blob: notABlob(good.size) },
    ];
    for (const c of bad) await expect(store.addCapture(c)).rejects.toBeInstanceOf(ZodError);
    expect(await store.count()).toBe(0);
    await store.addCapture({ ...good, capturedAt: '2026-11-21T15:07:00+01:00', latitude: undefined, longitude: undefined });
    expect(await store.count()).toBe(1);
  });

  it('gives the situation stored first, skipping emptied ones', async () => {
    const store = freshStore();
    expect(await store.firstSituation()).toBeUndefined();
    await store.addCapture(capture('1', 'zeta'));
    await store.addCapture(capture('2', 'alpha'));
    await store.addCapture(capture('3', 'zeta'));
    expect(await store.firstSituation()).toBe('zeta');
    await store.removeCapture('1');
    expect(await store.firstSituation()).toBe('zeta');
    await store.removeCapture('3');
    expect(await store.firstSituation()).toBe('alpha');
    // A situation that comes back is stored anew, after the others.
    await store.addCapture(capture('4', 'zeta'));
    expect(await store.firstSituation()).toBe('alpha');
  });

  it('survives a reopen (a reload)', async () => {
    const name = 'evidentia-test-reopen';
    const before = createOfflineStore(name);
    await before.addCapture(capture('1', 'home'));
    await before.close();
    const after = createOfflineStore(name);
    opened.push(after);
    expect(await after.count()).toBe(1);
    expect(await (await after.listBySituation('home'))[0]?.blob.text()).toBe('bytes of 1');
  });

  it('clears everything', async () => {
    const store = freshStore();
    await store.addCapture(capture('1', 'home'));
    await store.addCapture(capture('2', 'car'));
    await store.clear();
    expect(await store.count()).toBe(0);
    expect(await store.storedBytes()).toBe(0);
    expect(await store.firstSituation()).toBeUndefined();
    expect(await store.listBySituation('home')).toEqual([]);
    expect(await store.removeCapture('1')).toBe(false);
    await store.addCapture(capture('1', 'home'));
    expect(await store.count()).toBe(1);
  });

  it('tells subscribers about each change', async () => {
    const store = freshStore();
    let calls = 0;
    const unsubscribe = store.subscribe(() => {
      calls += 1;
    });
    await store.addCapture(capture('1', 'home'));
    await store.removeCapture('1');
    await store.removeCapture('1');
    await store.addCapture(capture('2', 'home')).then(() => store.addCapture(capture('2', 'home'))).catch(() => undefined);
    await store.clear();
    expect(calls).toBe(4);
    unsubscribe();
    await store.clear();
    expect(calls).toBe(4);
  });
});
