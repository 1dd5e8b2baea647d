// Capture into a step of an organization folder with the app's reducer, offline store and upload
// queue (as /evidence): the step's words, only the modes its media types allow, and each capture
// created in the folder with the step's id. The camera, the device's store and the bytes' sender
// are replaced at the module boundary, as in EvidencePage's test.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { createDeviceUploadQueue } from '../../../lib/upload/uploadQueueContext';
import { makeTestStore, memoryCaptures, renderAt, serve, type ApiCall } from '../../../testing';
import { apiFolderSummary, apiTemplateStep } from '../testing/helpers';
import { OrganizationEvidencePage } from './OrganizationEvidencePage';

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

const folder = {
  ...apiFolderSummary(),
  steps: [{ ...apiTemplateStep({ id: 'st-2', name: 'Damage', media_types: ['video', 'image'] }), complete: false, items: [] }],
};

function open() {
  return renderAt(
    store,
    [
      { path: '/organization-evidence/:folderId/:stepId', element: <OrganizationEvidencePage /> },
      { path: '/organization-folder/:folderId', element: <p>Organization folder screen</p> },
    ],
    '/organization-evidence/of-1/st-2',
    { uploadQueue },
  ).router;
}

beforeEach(() => {
  store.dispatch(tokensReceived({ access: 'a', refresh: 'r' }));
  memoryCaptures.clear();
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
