// @vitest-environment node
// Node's Blob survives IndexedDB's structured clone (fake-indexeddb); jsdom's does not.
import 'fake-indexeddb/auto';
import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOfflineStore, type OfflineStore, type StoredCapture } from '../offline/offlineStore';
import { createUploadQueue } from './queue';
import { remainingLabel, uploadReducer, type UploadRetry } from './uploadSlice';
import {
  distinctFolderName,
  resolveFolder,
  situationFolderName,
  UploadError,
  uploadCapture,
  type ByteSender,
  type EvidenceTransport,
  type PartUrlsRef,
  type UploadPlan,
} from './uploader';

const HASH = 'b'.repeat(64);

function capture(overrides: Partial<StoredCapture> = {}, bytes = 'hello evidence'): StoredCapture {
  const blob = new Blob([bytes], { type: 'image/jpeg' });
  return {
    id: 'c-1',
    situation: 's-1',
    name: 'Photo_20261121_090512',
    mediaType: 'image',
    mimeType: 'image/jpeg',
    size: blob.size,
    sha256: HASH,
    capturedAt: '2026-11-21T09:05:12.000Z',
    latitude: 52.5,
    longitude: 13.4,
    blob,
    ...overrides,
  };
}

interface Calls {
  created: { folderId: string; body: Record<string, unknown> }[];
  retaken: { id: string; body: Record<string, unknown> }[];
  folders: { name: string; client_id: string }[];
  partRequests: number[][];
  finished: string[];
  posted: { url: string; fields: Record<string, string>; text: string }[];
  put: { url: string; size: number }[];
}

function fakes(
  options: { plan?: UploadPlan | null; completed?: number[]; partSize?: number; partCount?: number; existingFolder?: boolean; folderNames?: string[] } = {},
) {
  const calls: Calls = { created: [], retaken: [], folders: [], partRequests: [], finished: [], posted: [], put: [] };
  const plan = options.plan === undefined ? ({ kind: 'single', url: 'https://s3/bucket', fields: { key: 'k', policy: 'p' } } as UploadPlan) : options.plan;
  const transport: EvidenceTransport = {
    findFolder: async (id) => (options.existingFolder ? { id } : undefined),
    createFolder: async (body) => {
      calls.folders.push(body);
      return { id: 'folder-new' };
    },
    folderNames: async () => options.folderNames ?? [],
    createItem: async (folderId, body) => {
      calls.created.push({ folderId, body: { ...body } });
      return { item: { id: 'item-1' }, upload: plan };
    },
    retakeItem: async (id, body) => {
      calls.retaken.push({ id, body: { ...body } });
      return { item: { id }, upload: plan };
    },
    partUrls: async (_id, partNumbers): Promise<PartUrlsRef> => {
      calls.partRequests.push(partNumbers);
      return {
        completedParts: options.completed ?? [],
        partSize: options.partSize ?? 4,
        partCount: options.partCount ?? 4,
        urls: partNumbers.map((n) => ({ partNumber: n, url: `https://s3/part/${n}` })),
      };
    },
    finish: async (id) => {
      calls.finished.push(id);
    },
  };
  const sender: ByteSender = {
    postForm: async (url, fields, file, onProgress) => {
      calls.posted.push({ url, fields, text: await file.text() });
      onProgress(file.size);
    },
    put: async (url, body, onProgress) => {
      calls.put.push({ url, size: body.size });
      onProgress(body.size);
    },
  };
  return { calls, transport, sender };
}

describe('uploadCapture', () => {
  it('creates the item with the capture id as client_id, posts the bytes with the policy fields, then finishes', async () => {
    const { calls, transport, sender } = fakes({ existingFolder: true });
    const progress: number[] = [];
    const itemId = await uploadCapture(capture({ section: 'body' }), { transport, sender, onProgress: (loaded) => progress.push(loaded) });
    expect(itemId).toBe('item-1');
    expect(calls.created).toEqual([
      {
        folderId: 's-1',
        body: {
          client_id: 'c-1',
          name: 'Photo_20261121_090512',
          media_type: 'image',
          mime_type: 'image/jpeg',
          file_size: 14,
          sha256: HASH,
          captured_at: '2026-11-21T09:05:12.000Z',
          latitude: 52.5,
          longitude: 13.4,
          section: 'body',
        },
      },
    ]);
    expect(calls.posted).toEqual([{ url: 'https://s3/bucket', fields: { key: 'k', policy: 'p' }, text: 'hello evidence' }]);
    expect(calls.finished).toEqual(['item-1']);
    expect(progress.at(-1)).toBe(14);
  });

  it('sends only the parts the store does not hold yet, counting the held ones as sent', async () => {
    // 14 bytes in parts of 4: 4 parts, the last of 2 bytes; parts 1 and 3 already stored.
    const { calls, transport, sender } = fakes({ plan: { kind: 'multipart', uploadId: 'u', partSize: 4, partCount: 4 }, completed: [1, 3] });
    const progress: number[] = [];
    await uploadCapture(capture(), { transport, sender, onProgress: (loaded) => progress.push(loaded) });
    expect(calls.partRequests).toEqual([[], [2, 4]]);
    expect(calls.put.map((p) => p.url).sort()).toEqual(['https://s3/part/2', 'https://s3/part/4']);
    expect(calls.put.find((p) => p.url.endsWith('/4'))?.size).toBe(2);
    expect(progress[0]).toBe(8);
    expect(progress.at(-1)).toBe(14);
    expect(calls.finished).toEqual(['item-1']);
  });

  it('sends nothing for an item whose upload already finished', async () => {
    const { calls, transport, sender } = fakes({ plan: null, existingFolder: true });
    await uploadCapture(capture(), { transport, sender });
    expect(calls.posted).toEqual([]);
    expect(calls.finished).toEqual([]);
  });

  it('retakes the item it replaces instead of creating one', async () => {
    const { calls, transport, sender } = fakes();
    await uploadCapture(capture({ retakeOf: 'item-7' }), { transport, sender });
    expect(calls.created).toEqual([]);
    expect(calls.retaken).toHaveLength(1);
    expect(calls.retaken[0]?.id).toBe('item-7');
    expect(calls.retaken[0]?.body).not.toHaveProperty('client_id');
    expect(calls.retaken[0]?.body).toMatchObject({ sha256: HASH, file_size: 14, mime_type: 'image/jpeg' });
    expect(calls.finished).toEqual(['item-7']);
  });
});

describe('resolveFolder', () => {
  it('uses the capture folder, then the folder its situation names, then makes one for the situation', async () => {
    const { calls, transport } = fakes();
    expect(await resolveFolder(capture({ folderId: 'f-9' }), transport)).toBe('f-9');
    expect(await resolveFolder(capture(), fakes({ existingFolder: true }).transport)).toBe('s-1');
    expect(await resolveFolder(capture(), transport)).toBe('folder-new');
    expect(calls.folders).toEqual([{ name: 'Evidence Nov 21, 2026', client_id: 's-1' }]);
  });

  it("makes (or finds by client_id) a new session's folder without asking for a folder by the session's id", async () => {
    const { calls, transport } = fakes({ existingFolder: true });
    const findFolder = vi.fn(transport.findFolder);
    expect(await resolveFolder(capture({ newSituation: true }), { ...transport, findFolder })).toBe('folder-new');
    expect(findFolder).not.toHaveBeenCalled();
    expect(calls.folders).toEqual([{ name: 'Evidence Nov 21, 2026', client_id: 's-1' }]);
  });

  it('gives a second capture session of the same day a folder name of its own', async () => {
    const { calls, transport } = fakes({ folderNames: ['Evidence Nov 21, 2026', 'evidence nov 21, 2026 - 2', 'Evidence Nov 20, 2026'] });
    expect(await resolveFolder(capture(), transport)).toBe('folder-new');
    expect(calls.folders).toEqual([{ name: 'Evidence Nov 21, 2026 - 3', client_id: 's-1' }]);
  });

  it('keeps the date alone while no folder has that name', () => {
    expect(distinctFolderName('Evidence Nov 21, 2026', ['Evidence Nov 20, 2026', 'Evidence Nov 21, 2026 - 2'])).toBe('Evidence Nov 21, 2026');
    expect(distinctFolderName('Evidence Nov 21, 2026', ['Evidence Nov 21, 2026'])).toBe('Evidence Nov 21, 2026 - 2');
    // spec §5 "File name": the numbered name keeps to its characters.
    expect(distinctFolderName('Evidence Nov 21, 2026', ['Evidence Nov 21, 2026'])).toMatch(/^[\p{L}\p{N} ,\-_`|.'"]{2,50}$/u);
  });

  it('names a situation folder with the file-name characters only', () => {
    expect(situationFolderName('2026-11-21T09:05:12.000Z')).toMatch(/^Evidence [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  });
});

describe('upload queue', () => {
  const stores: OfflineStore[] = [];
  let serial = 0;
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  function setup(transport: EvidenceTransport, sender: ByteSender) {
    serial += 1;
    const store = createOfflineStore(`queue-test-${serial}`);
    stores.push(store);
    const redux = configureStore({ reducer: { upload: uploadReducer } });
    const queue = createUploadQueue({
      store,
      transport,
      sender,
      dispatch: redux.dispatch,
      isOnline: () => true,
      sleep: async () => undefined,
      withLock: async (_name, work) => {
        await work();
        return true;
      },
    });
    return { store, redux, queue };
  }

  it('uploads a stored capture, then removes it from the store and marks it fulfilled', async () => {
    const { transport, sender } = fakes({ existingFolder: true });
    const { store, redux, queue } = setup(transport, sender);
    await store.addCapture(capture());
    expect(await queue.upload('c-1')).toBe('item-1');
    expect(await store.count()).toBe(0);
    expect(redux.getState().upload.fulfilled).toEqual(['c-1']);
    expect(queue.itemOf('c-1')).toBe('item-1');
  });

  it('keeps a refused capture stored and rejected with the server message, without retrying', async () => {
    const { transport, sender } = fakes({ existingFolder: true });
    const createItem = vi.fn(async () => {
      throw new UploadError('Please extend your Storage Date for this file.', false);
    });
    const { store, redux, queue } = setup({ ...transport, createItem }, sender);
    await store.addCapture(capture());
    expect(await queue.upload('c-1')).toBeUndefined();
    expect(createItem).toHaveBeenCalledTimes(1);
    expect(await store.count()).toBe(1);
    expect(redux.getState().upload.rejected).toEqual(['c-1']);
    expect(redux.getState().upload.errors['c-1']).toBe('Please extend your Storage Date for this file.');
  });

  it('retries a failure that may pass, and one call serves concurrent requests for the same capture', async () => {
    const { transport, sender } = fakes({ existingFolder: true });
    let failures = 2;
    const put = sender.postForm;
    const flaky: ByteSender = {
      ...sender,
      postForm: async (...args) => {
        if (failures > 0) {
          failures -= 1;
          throw new UploadError('The connection was lost.', true);
        }
        return put(...args);
      },
    };
    const { store, redux, queue } = setup(transport, flaky);
    await store.addCapture(capture());
    const [a, b] = await Promise.all([queue.upload('c-1'), queue.upload('c-1')]);
    expect(a).toBe('item-1');
    expect(b).toBe('item-1');
    expect(redux.getState().upload.fulfilled).toEqual(['c-1']);
  });

  it('says which attempt follows while it retries, then gives up with the last reason in words', async () => {
    const { transport, sender } = fakes({ existingFolder: true });
    const seen: unknown[] = [];
    const refusing: ByteSender = {
      ...sender,
      postForm: async () => {
        throw new UploadError('The upload link expired before the file was sent.', true);
      },
    };
    const { store, redux } = setup(transport, refusing);
    // What the row shows at each wait: the state as the queue goes to sleep.
    const { dispatch } = redux;
    const watched = createUploadQueue({
      store,
      transport,
      sender: refusing,
      dispatch,
      isOnline: () => true,
      sleep: async () => {
        const upload = redux.getState().upload;
        seen.push({ pending: upload.pending, retry: upload.retries['c-1'] });
      },
      withLock: async (_name, work) => {
        await work();
        return true;
      },
    });
    await store.addCapture(capture());
    expect(await watched.upload('c-1')).toBeUndefined();
    const reason = 'The upload link expired before the file was sent.';
    expect(seen).toEqual([
      { pending: ['c-1'], retry: { attempt: 2, attempts: 4, reason } },
      { pending: ['c-1'], retry: { attempt: 3, attempts: 4, reason } },
      { pending: ['c-1'], retry: { attempt: 4, attempts: 4, reason } },
    ]);
    expect(remainingLabel(undefined, (seen[0] as { retry: UploadRetry }).retry)).toBe(
      'Upload failed, retrying (attempt 2 of 4)...',
    );
    const upload = redux.getState().upload;
    expect(upload.rejected).toEqual(['c-1']);
    expect(upload.errors['c-1']).toBe(reason);
    expect(upload.retries['c-1']).toBeUndefined();
    expect(await store.count()).toBe(1);
  });

  it('says an unexpected failure in words rather than its technical message', async () => {
    const { transport, sender } = fakes({ existingFolder: true });
    const createItem = vi.fn(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    const { store, redux, queue } = setup({ ...transport, createItem }, sender);
    await store.addCapture(capture());
    await queue.upload('c-1');
    expect(redux.getState().upload.errors['c-1']).toBe('The file could not be sent.');
  });

  it("remembers a new situation's folder: the store learns it, and later captures go straight there", async () => {
    const { calls, transport, sender } = fakes();
    const findFolder = vi.fn(transport.findFolder);
    const { store, redux, queue } = setup({ ...transport, findFolder }, sender);
    await store.addCapture(capture({ id: 'first' }));
    await store.addCapture(capture({ id: 'second' }));
    await queue.uploadSituation('s-1');
    expect(redux.getState().upload.folders).toEqual({ 's-1': 'folder-new' });
    expect(findFolder).toHaveBeenCalledTimes(1);
    expect(calls.folders).toHaveLength(1);
    expect(calls.created.map((c) => c.folderId)).toEqual(['folder-new', 'folder-new']);
  });

  it('uploads a situation in the order stored', async () => {
    const { calls, transport, sender } = fakes({ existingFolder: true });
    const { store, queue } = setup(transport, sender);
    await store.addCapture(capture({ id: 'first' }));
    await store.addCapture(capture({ id: 'second' }));
    await store.addCapture(capture({ id: 'other', situation: 's-2' }));
    await queue.uploadSituation('s-1');
    expect(calls.created.map((c) => c.body.client_id)).toEqual(['first', 'second']);
    expect(await store.count()).toBe(1);
  });
});
