// The capture screen with the app's reducer and the device's upload queue against a fake evidence
// API (which, like the service, finds a folder by its id only): a new situation's notice goes once
// its folder exists, Done opens the folder just filled, a capture
// session is continued until Done, a second session of the day gets a folder name of its own, and
// the session's files are listed above the camera. The camera is replaced at the module boundary
// (its own test covers it), and so are the device's store (in memory) and the bytes' sender.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { createDeviceUploadQueue } from '../../../lib/upload/uploadQueueContext';
import { answer, makeTestStore, memoryCaptures, renderAt, serve } from '../../../testing';
import { CAPTURE_SESSION_KEY } from '../model/captureSession';
import { EvidencePage } from './EvidencePage';

vi.mock('../../../lib/offline/offlineStore', async (actual) => ({
  ...(await actual<typeof import('../../../lib/offline/offlineStore')>()),
  offlineStore: (await import('../../../testing/device')).memoryOfflineStore,
}));
vi.mock('../../../lib/upload/transport', async (actual) => ({
  ...(await actual<typeof import('../../../lib/upload/transport')>()),
  xhrSender: (await import('../../../testing/device')).instantSender,
}));
vi.mock('../../../lib/hash/sha256', () => ({ sha256Hex: async () => 'b'.repeat(64) }));
vi.mock('../../../components/capture/Recorder', async () => ({ Recorder: (await import('../../../testing/device')).FakeRecorder }));

// One store and queue for the file, as the app has one of each.
const store = makeTestStore();
const uploadQueue = createDeviceUploadQueue(store.dispatch);

const folderJson = (id: string, name: string) => ({
  id,
  name,
  created_at: '2026-11-21T09:05:13Z',
  expiration_date: '2027-11-21T00:00:00Z',
  expire_soon: false,
  expired: false,
  file_count: 1,
  used_bytes: 10,
});

/** The evidence API: folders made by client_id (404 before), one item per capture, finished at once. */
function fakeEvidenceApi(existing: string[] = []) {
  const folders = new Map<string, ReturnType<typeof folderJson>>();
  const created: { name: string; client_id: string }[] = [];
  let serial = 0;
  const itemFolder = new Map<string, string>();
  const notFound = answer(404, { errors: [{ message: 'Folder not found.', code: 'not_found' }] });
  const asked: string[] = [];
  const route = (method: string, path: string, body: unknown): unknown => {
    asked.push(`${method} ${path}`);
    if (method === 'GET' && path === 'evidence/folders/') {
      return { folders: [...existing.map((name, i) => folderJson(`old-${i}`, name)), ...folders.values()] };
    }
    if (method === 'POST' && path === 'evidence/folders/create/') {
      const wanted = body as { name: string; client_id: string };
      created.push(wanted);
      const folder = folders.get(wanted.client_id) ?? folderJson(`folder-${folders.size + 1}`, wanted.name);
      folders.set(wanted.client_id, folder);
      return folder;
    }
    // Like the service: a folder is found by its id only, never by the client_id it was made with.
    const id = /^evidence\/folders\/([^/]+)\/$/.exec(path)?.[1];
    if (method === 'GET' && id) return [...folders.values()].find((f) => f.id === id) ?? notFound;
    const into = /^evidence\/folders\/([^/]+)\/items\/create\/$/.exec(path)?.[1];
    if (into) {
      serial += 1;
      itemFolder.set(`item-${serial}`, into);
      return { item: { id: `item-${serial}` }, upload: { kind: 'single', url: 'https://s3.test/bucket', fields: { key: 'k' } } };
    }
    const finished = /^evidence\/items\/([^/]+)\/upload\/finish\/$/.exec(path)?.[1];
    if (finished) return { id: finished, folder_id: itemFolder.get(finished), name: 'Photo' };
    return notFound;
  };
  serve((call) => route(call.method, call.path, call.body));
  return { created, asked };
}

function openCapture(at: string) {
  return renderAt(
    store,
    [
      { path: '/evidence', element: <EvidencePage /> },
      { path: '/folder-view', element: <p>Folder screen</p> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
    ],
    at,
    { uploadQueue },
  );
}

async function takeAndUpload() {
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Take Photo' }));
  await waitFor(() => expect(screen.getAllByText('Uploaded').length).toBeGreaterThan(0), { timeout: 5000 });
}

beforeEach(() => {
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  window.sessionStorage.clear();
  memoryCaptures.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('capture into a new folder', () => {
  it('drops the new-folder notice once the upload made the folder, and Done opens that folder', async () => {
    fakeEvidenceApi();
    const { router } = openCapture('/evidence?situation=s-1');
    await screen.findByText('A new folder is made for these files.');
    expect(screen.queryByRole('link', { name: 'Done' })).toBeNull();

    await takeAndUpload();
    await waitFor(() => expect(screen.queryByText('A new folder is made for these files.')).toBeNull());
    expect(screen.getByText(/^Evidence Nov 21, 2026/)).toBeInTheDocument();
    const done = screen.getByRole('link', { name: 'Done' });
    expect(done).toHaveAttribute('href', '/folder-view?folderId=folder-1');
    await userEvent.setup().click(done);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/folder-view?folderId=folder-1');
  });

  it("lists the session's files above the camera", async () => {
    fakeEvidenceApi();
    openCapture('/evidence?situation=s-1');
    await takeAndUpload();
    const files = screen.getByRole('region', { name: 'Files' });
    const camera = screen.getByTestId('camera');
    expect(files.compareDocumentPosition(camera) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('names the folder of a second session on the same day apart from the first', async () => {
    const api = fakeEvidenceApi(['Evidence Nov 21, 2026']);
    openCapture('/evidence?situation=s-2');
    await takeAndUpload();
    expect(api.created).toEqual([{ name: 'Evidence Nov 21, 2026 - 2', client_id: 's-2' }]);
  });
});

describe('the capture session', () => {
  const situationOf = (router: ReturnType<typeof openCapture>['router']) => new URLSearchParams(router.state.location.search).get('situation');

  it("is known to be new: its folder is not asked for by the session's id", async () => {
    const api = fakeEvidenceApi();
    const { router } = openCapture('/evidence');
    await waitFor(() => expect(situationOf(router)).toBeTruthy());
    await screen.findByText('A new folder is made for these files.');
    expect(api.asked.filter((call) => call.includes(`folders/${situationOf(router)}/`))).toEqual([]);

    await takeAndUpload();
    await waitFor(() => expect(screen.queryByText('A new folder is made for these files.')).toBeNull());
    expect(api.asked).toContain('GET evidence/folders/folder-1/');
  });

  it('is continued by a visit before Done, and a visit after Done starts a new one', async () => {
    fakeEvidenceApi();
    const first = openCapture('/evidence');
    await waitFor(() => expect(situationOf(first.router)).toBeTruthy());
    const situation = situationOf(first.router);
    expect(window.sessionStorage.getItem(CAPTURE_SESSION_KEY)).toBe(situation);
    first.unmount();

    // Back out and come again: the same situation, so the same folder.
    const again = openCapture('/evidence');
    await waitFor(() => expect(situationOf(again.router)).toBe(situation));
    await takeAndUpload();
    await act(async () => {
      await userEvent.setup().click(screen.getByRole('link', { name: 'Done' }));
    });
    expect(window.sessionStorage.getItem(CAPTURE_SESSION_KEY)).toBeNull();
    again.unmount();

    const next = openCapture('/evidence');
    await waitFor(() => expect(situationOf(next.router)).toBeTruthy());
    expect(situationOf(next.router)).not.toBe(situation);
  });
});
