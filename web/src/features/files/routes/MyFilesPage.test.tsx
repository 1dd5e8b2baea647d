// My Files: storage usage, folders with storage date and tag chips (spec §2 "Other widgets", §4),
// rename with the file-name rule (spec §5) and delete after a confirmation.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api/api';
import { apiFolder, makeTestStore, noContent, renderAt, serve } from '../../../testing';
import { MyFilesPage } from './MyFilesPage';

afterEach(() => vi.unstubAllGlobals());

function setup(store = makeTestStore()) {
  let folders = [
    apiFolder({ id: 'f1', name: 'Car rental', file_count: 3, used_bytes: 2_500_000, expiration_date: '2027-05-10T12:00:00Z' }),
    apiFolder({ id: 'f2', name: 'Flat check-in', expire_soon: true, expiration_date: '2026-11-21T12:00:00Z' }),
    apiFolder({ id: 'f3', name: 'Old claim', expired: true, expiration_date: '2025-01-02T12:00:00Z' }),
  ];
  const calls = serve({
    'GET evidence/storage-usage/': { used_bytes: 2_500_000, file_count: 3, folder_count: 3 },
    'GET evidence/folders/': () => ({ folders }),
    'PATCH evidence/folders/f1/rename/': () => {
      folders = folders.map((f) => (f.id === 'f1' ? { ...f, name: 'Car rental May' } : f));
      return folders[0];
    },
    'DELETE evidence/folders/f3/delete/': () => {
      folders = folders.filter((f) => f.id !== 'f3');
      return noContent();
    },
  });
  const view = renderAt(store, [{ path: '/dashboard/my-files', element: <MyFilesPage /> }], '/dashboard/my-files');
  return { calls, store, ...view };
}

const folderRow = async (name: string) => (await screen.findAllByTestId('folder')).find((row) => row.textContent?.includes(name))!;

describe('My Files offline', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the last known folders and usage with a note when the app opens without a connection', async () => {
    const { store, unmount } = setup();
    await folderRow('Car rental');
    unmount();
    // A reload offline: no answers in memory, the network refuses, the browser says offline.
    store.dispatch(api.util.resetApiState());
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderAt(store, [{ path: '/dashboard/my-files', element: <MyFilesPage /> }], '/dashboard/my-files');
    expect(await screen.findByTestId('last-known')).toHaveTextContent(/^You are offline\. Showing the last known list, from \w{3} \d{1,2}, \d{4} · \d{2}:\d{2}\.$/);
    expect(await screen.findAllByTestId('folder')).toHaveLength(3);
    expect(screen.getByTestId('used-storage')).toHaveTextContent('2.5 MB');
    expect(screen.queryByText('Your folders could not be loaded.')).toBeNull();
  });

  it('says nothing of a last known list online', async () => {
    setup();
    await folderRow('Car rental');
    expect(screen.queryByTestId('last-known')).toBeNull();
  });
});

describe('My Files', () => {
  it('shows the storage used and each folder with its count, size and storage date', async () => {
    setup();
    expect(await screen.findByTestId('used-storage')).toHaveTextContent('2.5 MB');
    const row = await folderRow('Car rental');
    expect(row).toHaveTextContent('3 files · 2.5 MB');
    expect(row).toHaveTextContent(/Storage date: May 1\d, 2027/);
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/folder-view?folderId=f1');
  });

  it("tags folders 'EXPIRES SOON' with the date and 'Expired'", async () => {
    setup();
    expect(within(await folderRow('Flat check-in')).getByText('EXPIRES SOON')).toHaveClass('files-tag--red');
    expect(within(await folderRow('Old claim')).getByText('Expired')).toHaveClass('files-tag--grey');
    expect(within(await folderRow('Car rental')).queryByText(/EXPIRES SOON|Expired/)).not.toBeInTheDocument();
  });

  it('renames a folder, refusing a name with special characters', async () => {
    const { calls } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Car rental' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = await screen.findByLabelText('Name');
    fireEvent.change(input, { target: { value: 'Car/rental' } });
    expect(await screen.findByText('Special characters can not be used')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'Car rental May' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.path === 'evidence/folders/f1/rename/')).toBe(true));
    expect(await folderRow('Car rental May')).toBeDefined();
  });

  it('deletes a folder only after the confirmation', async () => {
    const { calls } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'More actions for Old claim' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const dialog = screen.getByRole('dialog', { name: 'Delete folder?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    await waitFor(() => expect(screen.queryByText('Old claim')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['evidence/folders/f3/delete/']);
  });
});
