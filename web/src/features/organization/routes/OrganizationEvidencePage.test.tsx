// Capture into a step of an organization folder with the app's reducer, offline store and upload
// queue (as /evidence): the step's words, only the modes its media types allow, and each capture
// created in the folder with the step's id. The camera, the device's store and the bytes' sender
// are replaced at the module boundary, as in EvidencePage's test.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serve, type ApiCall } from '../../../components/payments/testing';
import { configureStore } from '@reduxjs/toolkit';
import { api } from '../../../lib/api/api';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { rootReducer } from '../../../lib/store/rootReducer';
import { createDeviceUploadQueue, UploadQueueProvider } from '../../../lib/upload/uploadQueueContext';
import { apiFolderSummary, apiTemplateStep } from '../testing/helpers';
import { OrganizationEvidencePage } from './OrganizationEvidencePage';

const memory = vi.hoisted(() => {
  type Stored = { id: string; situation: string; blob: Blob } & Record<string, unknown>;
  const captures = new Map<string, Stored>();
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  return {
    captures,
    store: {
      addCapture: async (capture: Stored) => {
        captures.set(capture.id, capture);
        changed();
      },
      removeCapture: async (id: string) => {
        const had = captures.delete(id);
        changed();
        return had;
      },
      listBySituation: async (situation: string) => [...captures.values()].filter((c) => c.situation === situation),
      getCapture: async (id: string) => captures.get(id),
      firstSituation: async () => [...captures.values()][0]?.situation,
      count: async () => captures.size,
      storedBytes: async () => 0,
      clear: async () => captures.clear(),
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: async () => undefined,
    },
  };
});

vi.mock('../../../lib/offline/offlineStore', async (actual) => ({
  ...(await actual<typeof import('../../../lib/offline/offlineStore')>()),
  offlineStore: memory.store,
}));
vi.mock('../../../lib/upload/transport', async (actual) => ({
  ...(await actual<typeof import('../../../lib/upload/transport')>()),
  xhrSender: {
    postForm: async (_url: string, _fields: unknown, file: Blob, onProgress: (n: number) => void) => onProgress(file.size),
    put: async () => undefined,
  },
}));
vi.mock('../../../lib/hash/sha256', () => ({ sha256Hex: async () => 'b'.repeat(64) }));
vi.mock('../../../components/capture/Recorder', () => ({
  Recorder: ({ mode, onCaptured }: { mode: string; onCaptured: (r: unknown) => void }) => {
    const blob = new Blob(['jpeg bytes'], { type: 'image/jpeg' });
    return (
      <div data-testid="camera" data-mode={mode}>
        <button type="button" onClick={() => onCaptured({ mode: 'photo', blob, mimeType: 'image/jpeg', capturedAt: new Date('2026-11-21T09:05:12Z') })}>
          Take Photo
        </button>
      </div>
    );
  },
}));

// One store and queue for the file, as the app has one of each.
const store = configureStore({ reducer: rootReducer, middleware: (getDefault) => getDefault({ serializableCheck: false }).concat(api.middleware) });
const uploadQueue = createDeviceUploadQueue(store.dispatch);

const folder = {
  ...apiFolderSummary(),
  steps: [{ ...apiTemplateStep({ id: 'st-2', name: 'Damage', media_types: ['video', 'image'] }), complete: false, items: [] }],
};

function open() {
  const router = createMemoryRouter(
    [
      { path: '/organization-evidence/:folderId/:stepId', element: <OrganizationEvidencePage /> },
      { path: '/organization-folder/:folderId', element: <p>Organization folder screen</p> },
    ],
    { initialEntries: ['/organization-evidence/of-1/st-2'] },
  );
  render(
    <Provider store={store}>
      <UploadQueueProvider value={uploadQueue}>
        <RouterProvider router={router} />
      </UploadQueueProvider>
    </Provider>,
  );
  return router;
}

beforeEach(() => {
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  memory.captures.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('capture into a step', () => {
  it("offers the step's modes and creates each capture in the folder with the step's id", async () => {
    const calls = serve({
      'GET organizations/folders/of-1/': folder,
      'POST evidence/folders/of-1/items/create/': { item: { id: 'item-1' }, upload: { kind: 'single', url: 'https://s3.test/bucket', fields: { key: 'k' } } },
      'POST evidence/items/item-1/upload/finish/': { id: 'item-1', folder_id: 'of-1', name: 'Photo' },
    });
    const router = open();
    expect(await screen.findByRole('heading', { name: 'Damage' })).toBeInTheDocument();
    expect(screen.getByText('Show the label.')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Video', 'Photo']);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Photo' }));
    expect(screen.getByTestId('camera')).toHaveAttribute('data-mode', 'photo');
    await user.click(screen.getByRole('button', { name: 'Take Photo' }));
    await waitFor(() => expect(screen.getByText('Uploaded')).toBeInTheDocument(), { timeout: 5000 });
    const create = calls.find((c: ApiCall) => c.path === 'evidence/folders/of-1/items/create/');
    expect(create?.body).toMatchObject({ step_id: 'st-2', media_type: 'image', file_size: 10 });
    expect(calls.some((c) => c.path === 'evidence/folders/create/')).toBe(false);
    await user.click(screen.getByRole('link', { name: 'Done' }));
    expect(router.state.location.pathname).toBe('/organization-folder/of-1');
  });
});
