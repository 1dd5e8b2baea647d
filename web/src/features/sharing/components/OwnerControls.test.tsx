// The owner's controls: a folder's shares (recipients' states, transaction numbers, copies ready),
// revoking one after a confirmation, an unauthenticated share's public link switched on and off and
// copied; the share success screen; each file's custody log and its check.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShareSuccessPage } from '../routes/ShareSuccessPage';
import { MESSAGES } from '../model/labels';
import { answer, type ApiCall, renderAt, serve } from '../../../testing';
import { apiRecipient, apiShare, makeSharingStore } from '../testing/helpers';
import { CHECK_FAILED, FolderCustody, PACKET_FAILED } from './FolderCustody';
import { FolderShares, REVOKE_SUBTITLE, REVOKE_TITLE } from './FolderShares';

afterEach(() => vi.unstubAllGlobals());

function renderShares(routes: Record<string, unknown>) {
  const calls = serve(routes);
  const store = makeSharingStore();
  renderAt(store, [{ path: '/folder', element: <FolderShares folderId="folder-1" /> }], '/folder');
  return { calls, store };
}

describe('the Shares section', () => {
  it('lists each share with its recipients, their states and transaction numbers, and copies ready', async () => {
    renderShares({
      'GET sharing/folder/folder-1/details/': {
        folder_id: 'folder-1',
        shares: [
          apiShare({
            recipients: [
              apiRecipient(),
              apiRecipient({ id: 'r2', sent_to: '+15551234567', channel: 'sms', transaction_number: 'EVD-AB12-CD34', state: 'code_checked', copies_ready: 1 }),
            ],
          }),
        ],
      },
    });
    const share = await screen.findByTestId('share');
    expect(within(share).getByText('Authenticated Copy')).toBeInTheDocument();
    expect(share).toHaveTextContent('2 files · Payment EVD-2026-000042');
    expect(within(share).getAllByTestId('recipient-state').map((e) => e.textContent)).toEqual(['Sent', 'Code checked']);
    expect(within(share).getAllByTestId('recipient-transaction-number').map((e) => e.textContent)).toEqual(['EVD-7K3Q-9XTM', 'EVD-AB12-CD34']);
    expect(within(share).getAllByTestId('copies-ready').map((e) => e.textContent)).toEqual(['Copies ready 2/2', 'Copies ready 1/2']);
    // An authenticated share has no public link.
    expect(within(share).queryByRole('switch')).not.toBeInTheDocument();
  });

  it('revokes a share after the confirmation', async () => {
    let revoked = false;
    const { calls, store } = renderShares({
      'GET sharing/folder/folder-1/details/': () => ({ folder_id: 'folder-1', shares: [apiShare({ revoked_at: revoked ? '2026-03-06T12:00:00Z' : null })] }),
      'POST sharing/shares/share-1/revoke/': () => {
        revoked = true;
        return apiShare({ revoked_at: '2026-03-06T12:00:00Z' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = screen.getByRole('dialog', { name: REVOKE_TITLE });
    expect(dialog).toHaveTextContent(REVOKE_SUBTITLE);
    // Cancel keeps it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.path.endsWith('/revoke/'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog', { name: REVOKE_TITLE })).getByRole('button', { name: 'Revoke' })));
    expect(await screen.findByTestId('share-revoked')).toHaveTextContent('Revoked');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['sharing/shares/share-1/revoke/']);
    expect(store.getState().snackbar).toMatchObject({ type: 'success', message: MESSAGES.revoked });
    expect(screen.queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
  });

  it('a refused revoke shows the server message', async () => {
    const { store } = renderShares({
      'GET sharing/folder/folder-1/details/': { folder_id: 'folder-1', shares: [apiShare()] },
      'POST sharing/shares/share-1/revoke/': answer(404, { errors: [{ message: 'This share does not exist.', code: 'not_found' }] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    await act(async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' })));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'This share does not exist.' }));
  });

  it("switches an unauthenticated share's public link on (sharing/url/create/?active=true) and copies it, then off", async () => {
    let link: { url: string; active: boolean } | null = null;
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { calls, store } = renderShares({
      'GET sharing/folder/folder-1/details/': () => ({ folder_id: 'folder-1', shares: [apiShare({ copy_type: 'unauthenticated', public_link: link })] }),
      'POST sharing/url/create/': (call: ApiCall) => {
        link = { url: 'http://127.0.0.1:8080/unauth-shared-folder?link=TOKEN', active: call.search === '?active=true' };
        return link;
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Public link' });
    expect(toggle).not.toBeChecked();
    await act(async () => fireEvent.click(toggle));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Public link' })).toBeChecked());
    const posts = calls.filter((c) => c.path === 'sharing/url/create/');
    expect(posts[0]).toMatchObject({ method: 'POST', search: '?active=true', body: { share_id: 'share-1' } });
    expect(screen.getByRole('textbox', { name: 'Public link' })).toHaveValue('http://127.0.0.1:8080/unauth-shared-folder?link=TOKEN');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Link' })));
    expect(writeText).toHaveBeenCalledWith('http://127.0.0.1:8080/unauth-shared-folder?link=TOKEN');
    expect(store.getState().snackbar).toMatchObject({ type: 'success', message: MESSAGES.linkCopied });

    await act(async () => fireEvent.click(screen.getByRole('switch', { name: 'Public link' })));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Public link' })).not.toBeChecked());
    expect(calls.filter((c) => c.path === 'sharing/url/create/').map((c) => c.search)).toEqual(['?active=true', '?active=false']);
    expect(screen.queryByRole('textbox', { name: 'Public link' })).not.toBeInTheDocument();
  });

  it('says when the folder has not been shared yet', async () => {
    renderShares({ 'GET sharing/folder/folder-1/details/': { folder_id: 'folder-1', shares: [] } });
    expect(await screen.findByText('This folder has not been shared yet.')).toBeInTheDocument();
  });

  it('shows a failure with a retry', async () => {
    renderShares({ 'GET sharing/folder/folder-1/details/': answer(500, { errors: [{ message: 'boom' }] }) });
    expect(await screen.findByText('The shares could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('/share-success', () => {
  it('shows the recipients with their transaction numbers and leads back to the folder', async () => {
    serve({ 'GET sharing/folder/folder-1/details/': { folder_id: 'folder-1', shares: [apiShare()] } });
    renderAt(makeSharingStore(), [{ path: '/share-success', element: <ShareSuccessPage /> }], '/share-success?folderId=folder-1&shareId=share-1&transactionId=tx9');
    expect(await screen.findByText('jane@example.com')).toBeInTheDocument();
    expect(screen.getByTestId('recipient-transaction-number')).toHaveTextContent('EVD-7K3Q-9XTM');
    expect(screen.getByRole('link', { name: 'Back to the Folder' })).toHaveAttribute('href', '/folder-view?folderId=folder-1');
    expect(screen.getByRole('link', { name: 'Transaction Details' })).toHaveAttribute('href', '/transaction-info?id=tx9');
  });
});

const CONTENTS = {
  items: [
    {
      item_id: 'item-1',
      name: 'Front bumper',
      media_type: 'image',
      shared_counter: 1,
      sharing_available_counter: 0,
      custody: [
        { seq: 1, kind: 'captured', at: '2026-03-04T10:05:00Z', detail: 'Berlin', hash: '1'.repeat(64), prev_hash: null },
        { seq: 2, kind: 'uploaded', at: '2026-03-04T10:06:00Z', detail: '', hash: '2'.repeat(64), prev_hash: '1'.repeat(64) },
        { seq: 3, kind: 'shared', at: '2026-03-05T09:00:00Z', detail: 'jane@example.com', hash: '3'.repeat(64), prev_hash: '2'.repeat(64) },
      ],
    },
  ],
};

describe('the custody log', () => {
  it("lists each file's entries and checks the chain: intact", async () => {
    const { calls } = renderCustody({ items: [{ item_id: 'item-1', entries: 3, intact: true, first_broken: null }] });
    const log = await screen.findByRole('list', { name: 'Custody log of Front bumper' });
    expect(within(log).getAllByRole('listitem').map((li) => li.querySelector('.sharing-custody__kind')?.textContent)).toEqual([
      '1. Captured',
      '2. Uploaded',
      '3. Shared',
    ]);
    await act(async () => fireEvent.click(await checkButton()));
    expect(await screen.findByTestId('custody-verdict')).toHaveTextContent('Intact: 3 entries checked.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['sharing/folder/folder-1/authenticate/']);
  });

  it('names the first broken entry', async () => {
    renderCustody({ items: [{ item_id: 'item-1', entries: 3, intact: false, first_broken: { seq: 2, kind: 'uploaded', at: '2026-03-04T10:06:00Z' } }] });
    await act(async () => fireEvent.click(await checkButton()));
    expect(await screen.findByTestId('custody-verdict')).toHaveTextContent(/^Broken at entry 2 \(Uploaded, .+\)\.$/);
    expect(document.querySelector('.sharing-custody__entry--broken')).toHaveTextContent('2. Uploaded');
  });

  it("a file's Details show its own log and counters only", async () => {
    const contents = { items: [...CONTENTS.items, { ...CONTENTS.items[0], item_id: 'item-2', name: 'Rear door', custody: [] }] };
    serve({ 'GET sharing/folder/folder-1/contents/': contents });
    renderAt(makeSharingStore(), [{ path: '/details', element: <FolderCustody folderId="folder-1" itemId="item-1" /> }], '/details');
    await screen.findByRole('list', { name: 'Custody log of Front bumper' });
    expect(screen.queryByRole('list', { name: 'Custody log of Rear door' })).not.toBeInTheDocument();
    expect(screen.getByText('Shared with 1 recipient; 0 can still open it')).toBeInTheDocument();
  });

  it("a file's Details download that file's packet", async () => {
    const follow = vi.fn();
    const calls = serve({
      'GET sharing/folder/folder-1/contents/': CONTENTS,
      'POST sharing/folder/folder-1/packet/': { url: '/api/sharing/packets/one/', expires_at: null },
    });
    renderAt(makeSharingStore(), [{ path: '/details', element: <FolderCustody folderId="folder-1" itemId="item-1" follow={follow} /> }], '/details');
    expect(screen.getByText(/A ZIP of this file with its signed receipt and custody log\./)).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Download evidence packet' })));
    await waitFor(() => expect(follow).toHaveBeenCalledWith('/api/sharing/packets/one/'));
    expect(calls.find((c: ApiCall) => c.path.endsWith('/packet/'))?.body).toEqual({ item_ids: ['item-1'] });
  });

  it('Download evidence packet asks for a link and follows it; a refusal says why', async () => {
    const follow = vi.fn();
    const calls = serve({
      'GET sharing/folder/folder-1/contents/': CONTENTS,
      'POST sharing/folder/folder-1/packet/': { url: '/api/sharing/packets/secret/', expires_at: '2026-11-27T12:10:00Z' },
    });
    const store = makeSharingStore();
    renderAt(store, [{ path: '/proof', element: <FolderCustody folderId="folder-1" follow={follow} /> }], '/proof');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Download evidence packet' })));
    await waitFor(() => expect(follow).toHaveBeenCalledWith('/api/sharing/packets/secret/'));
    const asked = calls.find((c: ApiCall) => c.method === 'POST' && c.path.endsWith('/packet/'));
    expect(asked?.body).toEqual({ item_ids: [] });
    expect(screen.getByText(/Anyone can check it offline/)).toBeInTheDocument();
  });

  it('a refused packet says why', async () => {
    serve({
      'GET sharing/folder/folder-1/contents/': CONTENTS,
      'POST sharing/folder/folder-1/packet/': answer(400, { errors: [{ field: 'item_ids', message: 'This folder has no verified files yet.' }] }),
    });
    const store = makeSharingStore();
    const follow = vi.fn();
    renderAt(store, [{ path: '/proof', element: <FolderCustody folderId="folder-1" follow={follow} /> }], '/proof');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Download evidence packet' })));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'This folder has no verified files yet.' }),
    );
    expect(follow).not.toHaveBeenCalled();
    expect(PACKET_FAILED).toBe('The evidence packet could not be prepared.');
  });

  it('a failed check says so', async () => {
    const { store } = renderCustody(answer(400, { errors: [{ message: 'nope' }] }));
    await act(async () => fireEvent.click(await checkButton()));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'nope' }));
    expect(CHECK_FAILED).toBe('The custody chain could not be checked.');
  });
});

function renderCustody(check: unknown) {
  const calls = serve({ 'GET sharing/folder/folder-1/contents/': CONTENTS, 'POST sharing/folder/folder-1/authenticate/': check });
  const store = makeSharingStore();
  renderAt(store, [{ path: '/proof', element: <FolderCustody folderId="folder-1" /> }], '/proof');
  return { calls, store };
}

/** The check, once the log is there (the button waits for it). */
async function checkButton() {
  const button = screen.getByRole('button', { name: 'Check custody chain' });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}
