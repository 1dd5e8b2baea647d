// The folder view: opening files (spec §2 viewers), expired files blocked (spec §4, §8), the menus
// of spec §2, retake, details, and the list/grid toggle.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXPIRED_MESSAGE } from '../../../lib/api/evidence';
import { apiFolder, apiItem, makeTestStore, renderAt, serve } from '../../../testing';
import { signedReceipt } from '../../../lib/receipts/testing';
import { FolderViewPage } from './FolderViewPage';

afterEach(() => vi.unstubAllGlobals());

function setup(items: ReturnType<typeof apiItem>[], folder = apiFolder(), shares?: Parameters<typeof FolderViewPage>[0]['shares']) {
  const calls = serve({
    'GET evidence/folders/folder-1/': folder,
    'GET evidence/folders/folder-1/items/': { items },
    'GET evidence/items/item-1/download/': { url: 'http://s3.local/fresh.jpg', expires_at: null },
  });
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/folder-view', element: <FolderViewPage shares={shares} /> },
      { path: '/evidence', element: <p>Capture</p> },
      { path: '/share-files/:folderId', element: <p>Share files</p> },
    ],
    '/folder-view?folderId=folder-1',
  );
  return { calls, store, ...view };
}

const menuOf = async (name: string) => {
  fireEvent.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  return screen.getByRole('menu', { name: `Actions for ${name}` });
};
const labels = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((b) => b.textContent);

describe('folder view', () => {
  it('says so with Try Again when the folder or its files got no answer, and recovers', async () => {
    let folderCalls = 0;
    let itemCalls = 0;
    serve({
      'GET evidence/folders/folder-1/': () => {
        if (++folderCalls === 1) throw new TypeError('Failed to fetch');
        return apiFolder({ name: 'Lease end' });
      },
      'GET evidence/folders/folder-1/items/': () => {
        if (++itemCalls === 1) throw new TypeError('Failed to fetch');
        return { items: [apiItem({ name: 'Bumper' })] };
      },
    });
    renderAt(makeTestStore(), [{ path: '/folder-view', element: <FolderViewPage /> }], '/folder-view?folderId=folder-1');
    expect(await screen.findByText('The folder could not be loaded. The network connection is poor or was lost.')).toBeInTheDocument();
    expect(screen.getByText('The files could not be loaded. The network connection is poor or was lost.')).toBeInTheDocument();
    for (const button of screen.getAllByRole('button', { name: 'Try Again' })) await act(async () => fireEvent.click(button));
    expect(await screen.findByRole('heading', { name: 'Lease end' })).toBeInTheDocument();
    expect(await screen.findByText('Bumper')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });

  it('opens a photo in the image viewer with a fresh link', async () => {
    const { calls } = setup([apiItem()]);
    const open = await screen.findByRole('button', { name: 'Open Front bumper scratch' });
    await act(async () => fireEvent.click(open));
    const viewer = await screen.findByRole('dialog', { name: 'Front bumper scratch' });
    expect(within(viewer).getByRole('img', { name: 'Front bumper scratch' })).toHaveAttribute('src', 'http://s3.local/fresh.jpg');
    expect(calls.some((c) => c.path === 'evidence/items/item-1/download/')).toBe(true);
  });

  it("refuses to open an expired file with 'Please extend your Storage Date for this file.'", async () => {
    const { store, calls } = setup([apiItem({ expired: true, thumbnail: null, temporary_file_url: null })], apiFolder({ expired: true }));
    const open = await screen.findByRole('button', { name: 'Open Front bumper scratch' });
    await act(async () => fireEvent.click(open));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: EXPIRED_MESSAGE });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.endsWith('/download/'))).toBe(false);
    expect(screen.getAllByText('Expired').length).toBeGreaterThan(0);
  });

  it('refuses to download an expired file', async () => {
    const { store } = setup([apiItem({ expired: true })], apiFolder({ expired: true }));
    const menu = await menuOf('Front bumper scratch');
    await act(async () => fireEvent.click(within(menu).getByRole('menuitem', { name: 'Download' })));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, message: EXPIRED_MESSAGE });
  });

  it('gives a verified file the full menu and a rejected one the editable menu with Retake', async () => {
    setup([apiItem(), apiItem({ id: 'item-2', name: 'Hash differs', status: 'rejected', rejection_reason: 'Size differs.', can_retake: true })]);
    expect(labels(await menuOf('Front bumper scratch'))).toEqual(['Rename', 'Retake', 'Details', 'Download', 'Delete']);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(labels(await menuOf('Hash differs'))).toEqual(['Rename', 'Retake', 'Details', 'Delete']);
  });

  it('retakes on the capture screen with the folder, item, mode and the way back', async () => {
    const { router } = setup([apiItem({ media_type: 'video', name: 'Walkaround' })]);
    const menu = await menuOf('Walkaround');
    await act(async () => fireEvent.click(within(menu).getByRole('menuitem', { name: 'Retake' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/evidence'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      situation: 'folder-1',
      retake: 'item-1',
      mode: 'video',
      returnTo: '/folder-view?folderId=folder-1',
    });
  });

  it('shows every recorded fact in Details', async () => {
    setup([apiItem()]);
    fireEvent.click(within(await menuOf('Front bumper scratch')).getByRole('menuitem', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Details' });
    expect(details).toHaveTextContent('a'.repeat(64));
    expect(details).toHaveTextContent('Germany');
    expect(details).toHaveTextContent('52.520000, 13.405000');
    expect(details).toHaveTextContent('Mar 4, 2027');
  });

  it('checks the signed receipt in Details against the published key', async () => {
    const good = await signedReceipt('{"item_id":"item-1","key_id":"k1"}');
    const calls = serve({
      'GET evidence/folders/folder-1/': apiFolder(),
      'GET evidence/folders/folder-1/items/': {
        items: [
          apiItem({ receipt: good.receipt }),
          apiItem({ id: 'item-2', name: 'Tampered', receipt: { ...good.receipt, payload: '{"item_id":"item-2","key_id":"k1"}' } }),
        ],
      },
      'GET .well-known/receipt-keys': { keys: [good.key] },
    });
    renderAt(makeTestStore(), [{ path: '/folder-view', element: <FolderViewPage /> }], '/folder-view?folderId=folder-1');
    fireEvent.click(within(await menuOf('Front bumper scratch')).getByRole('menuitem', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Details' });
    await waitFor(() => expect(within(details).getByTestId('receipt-check')).toHaveTextContent('Signed receipt: signature valid (key k1)'));
    expect(details).toHaveTextContent('{"item_id":"item-1","key_id":"k1"}');
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));
    fireEvent.click(within(await menuOf('Tampered')).getByRole('menuitem', { name: 'Details' }));
    const tampered = screen.getByRole('dialog', { name: 'Details' });
    await waitFor(() => expect(within(tampered).getByTestId('receipt-check')).toHaveTextContent('the signature does not match'));
    expect(calls.filter((c) => c.path === '.well-known/receipt-keys')).toHaveLength(1);
  });

  it("shows a receipt's timestamp when the authority gave one", async () => {
    const good = await signedReceipt('{"item_id":"item-1","key_id":"k1"}');
    serve({
      'GET evidence/folders/folder-1/': apiFolder(),
      'GET evidence/folders/folder-1/items/': {
        items: [apiItem({ receipt: { ...good.receipt, timestamp: 'MIIC', timestamped_at: '2026-11-27T15:30:00Z' } }), apiItem({ id: 'item-2', name: 'Unstamped', receipt: good.receipt })],
      },
      'GET .well-known/receipt-keys': { keys: [good.key], timestamp_authority_pem: null },
    });
    renderAt(makeTestStore(), [{ path: '/folder-view', element: <FolderViewPage /> }], '/folder-view?folderId=folder-1');
    fireEvent.click(within(await menuOf('Front bumper scratch')).getByRole('menuitem', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Details' });
    expect(within(details).getByTestId('receipt-timestamp')).toHaveTextContent(/^Timestamped by the time-stamping authority: .*2026/);
    fireEvent.click(within(details).getByRole('button', { name: 'Close' }));
    fireEvent.click(within(await menuOf('Unstamped')).getByRole('menuitem', { name: 'Details' }));
    expect(within(screen.getByRole('dialog', { name: 'Details' })).queryByTestId('receipt-timestamp')).toBeNull();
  });

  it('says a file verified before receipts has none', async () => {
    setup([apiItem()]);
    fireEvent.click(within(await menuOf('Front bumper scratch')).getByRole('menuitem', { name: 'Details' }));
    expect(screen.getByRole('dialog', { name: 'Details' })).toHaveTextContent('None: verified before receipts were signed');
  });

  it('switches between list rows and grid tiles', async () => {
    setup([apiItem()]);
    await screen.findByTestId('file');
    expect(screen.getByRole('list', { name: 'Files' })).toHaveAttribute('data-layout', 'list');
    fireEvent.click(screen.getByRole('button', { name: 'Grid' }));
    expect(screen.getByRole('list', { name: 'Files' })).toHaveAttribute('data-layout', 'grid');
    expect(screen.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('Share opens the share screens of the folder', async () => {
    const { router } = setup([apiItem()]);
    await screen.findByTestId('file');
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(router.state.location.pathname).toBe('/share-files/folder-1');
  });

  it("Share refuses an expired folder with 'Please extend your Storage Date for this file.'", async () => {
    const { router, store } = setup([apiItem({ expired: true })], apiFolder({ expired: true }));
    await screen.findByTestId('file');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Share' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: EXPIRED_MESSAGE });
    expect(router.state.location.pathname).toBe('/folder-view');
  });

  it("shows the folder's shares below its files, given the section", async () => {
    setup([apiItem()], apiFolder(), ({ folderId }) => <p>Shares of {folderId}</p>);
    expect(await screen.findByText('Shares of folder-1')).toBeInTheDocument();
  });
});
