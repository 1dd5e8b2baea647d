// Delete files: selection, select all, deleting the selection after a confirmation, and the
// leave-page confirmation of spec §2 ('Leave this page?' / 'Your progress and data will be lost.').
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, apiFolder, apiItem, makeTestStore, noContent, renderAt, serve } from '../../../testing';
import { DeleteFilesPage, LEAVE_SUBTITLE, LEAVE_TITLE } from './DeleteFilesPage';

afterEach(() => vi.unstubAllGlobals());

function setup(items = [apiItem({ id: 'i1', name: 'Bumper' }), apiItem({ id: 'i2', name: 'Door' })]) {
  let listed = items;
  const calls = serve({
    'GET evidence/folders/folder-1/': apiFolder(),
    'GET evidence/folders/folder-1/items/': () => ({ items: listed }),
    'DELETE evidence/items/i1/delete/': () => {
      listed = listed.filter((i) => i.id !== 'i1');
      return noContent();
    },
    'DELETE evidence/items/i2/delete/': () => {
      listed = listed.filter((i) => i.id !== 'i2');
      return noContent();
    },
  });
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/delete-files/:folderId', element: <DeleteFilesPage /> },
      { path: '/folder-view', element: <p>Folder view</p> },
      { path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
    '/delete-files/folder-1',
  );
  return { calls, store, ...view };
}

describe('delete files', () => {
  it('says the folder is gone when it was deleted meanwhile (another tab, a stale link)', async () => {
    const gone = answer(404, { errors: [{ message: 'Not found.', code: 'not_found' }] });
    serve({ 'GET evidence/folders/folder-1/': gone, 'GET evidence/folders/folder-1/items/': gone });
    renderAt(makeTestStore(), [{ path: '/delete-files/:folderId', element: <DeleteFilesPage /> }], '/delete-files/folder-1');
    expect(await screen.findByRole('heading', { name: 'Folder not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Files' })).toHaveAttribute('href', '/dashboard/my-files');
  });

  it('deletes nothing until a file is selected', async () => {
    setup();
    await screen.findByRole('checkbox', { name: 'Bumper' });
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it('selects all and deletes the selection after the confirmation', async () => {
    const { calls, router } = setup();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('checkbox', { name: 'Bumper' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Door' })).toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Delete 2 files' }));
    expect(screen.getByRole('dialog', { name: 'Delete files?' })).toHaveTextContent('2 files will be deleted permanently.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/folder-view'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['evidence/items/i1/delete/', 'evidence/items/i2/delete/']);
    expect(screen.queryByText(LEAVE_TITLE)).not.toBeInTheDocument();
  });

  it('deletes only the files chosen', async () => {
    const { calls } = setup();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Door' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete 1 file' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete' })));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['evidence/items/i2/delete/']);
  });

  it('asks before leaving with a selection, and leaves on Leave', async () => {
    const { router } = setup();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Bumper' }));
    await act(async () => router.navigate('/elsewhere'));
    const dialog = screen.getByRole('dialog', { name: LEAVE_TITLE });
    expect(dialog).toHaveTextContent(LEAVE_SUBTITLE);
    expect(router.state.location.pathname).toBe('/delete-files/folder-1');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Leave' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
  });

  it('stays on Cancel, and leaves without asking when nothing is selected', async () => {
    const { router } = setup();
    const bumper = await screen.findByRole('checkbox', { name: 'Bumper' });
    fireEvent.click(bumper);
    await act(async () => router.navigate('/elsewhere'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(router.state.location.pathname).toBe('/delete-files/folder-1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Bumper' }));
    await act(async () => router.navigate('/elsewhere'));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks the browser to confirm unloading the page while files are selected', async () => {
    setup();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await screen.findByRole('checkbox', { name: 'Bumper' });
    expect(unload()).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Bumper' }));
    expect(unload()).toBe(true);
  });
});
