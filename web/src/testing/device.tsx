//! Stand-ins for the device's parts that the capture screens' tests replace at the module boundary
//! with `vi.mock`: the offline store in memory, a byte sender that sends at once, and a camera
//! with one 'Take Photo' button. Only types are imported here, so a `vi.mock` factory can import
//! this module without loading the modules it replaces:
//!
//!   vi.mock('.../lib/offline/offlineStore', async (actual) => ({
//!     ...(await actual<typeof import('.../lib/offline/offlineStore')>()),
//!     offlineStore: (await import('.../testing/device')).memoryOfflineStore,
//!   }));
import type { CaptureMode } from '../lib/media/capture';
import type { OfflineStore, StoredCapture } from '../lib/offline/offlineStore';
import type { ByteSender } from '../lib/upload/uploader';
import type { Recording } from '../components/capture/Recorder';

const captures = new Map<string, StoredCapture>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** The offline store in memory: no size limit, one store for the test file (`clear()` it in beforeEach). */
export const memoryOfflineStore: OfflineStore = {
  addCapture: async (capture) => {
    captures.set(capture.id, capture);
    changed();
  },
  removeCapture: async (id) => {
    const had = captures.delete(id);
    changed();
    return had;
  },
  listBySituation: async (situation) => [...captures.values()].filter((c) => c.situation === situation),
  getCapture: async (id) => captures.get(id),
  firstSituation: async () => [...captures.values()][0]?.situation,
  count: async () => captures.size,
  storedBytes: async () => 0,
  clear: async () => {
    captures.clear();
  },
  subscribe: (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  close: async () => undefined,
};

/** What `memoryOfflineStore` holds, to look at or empty synchronously. */
export const memoryCaptures = captures;

/** A byte sender that sends everything at once; `posts` lists the URLs of the forms posted. */
export const instantSender: ByteSender & { posts: string[] } = {
  posts: [],
  postForm: async (url, _fields, file, onProgress) => {
    instantSender.posts.push(url);
    onProgress(file.size);
  },
  put: async () => undefined,
};

/** The camera: a 'Take Photo' button that records a small JPEG (the Recorder's own test covers the real one). */
export function FakeRecorder({ mode, onCaptured }: { mode: CaptureMode; onCaptured: (recording: Recording) => void }) {
  const blob = new Blob(['jpeg bytes'], { type: 'image/jpeg' });
  return (
    <div data-testid="camera" data-mode={mode}>
      <button type="button" onClick={() => onCaptured({ mode: 'photo', blob, mimeType: 'image/jpeg', capturedAt: new Date('2026-11-21T09:05:12Z'), preview: blob })}>
        Take Photo
      </button>
    </div>
  );
}
