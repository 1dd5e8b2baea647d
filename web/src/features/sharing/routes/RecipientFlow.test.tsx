// The recipient (open to anyone): the link's code sent and checked, the folder token kept as
// spec §3's accessFolderToken and sent in X-Folder-Token (never as the bearer); the shared folder
// views with the watermark banner, copies being prepared, the viewers with the watermark over
// them, download, the custody events, an ended access, and a public link.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { folderTokenReceived } from '../../../lib/session/loginInfoSlice';
import { answer, type ApiCall, renderAt, serve } from '../../../testing';
import { apiSharedFolder, apiSharedItem, makeSharingStore } from '../testing/helpers';
import { GetAccessConfirmPage } from './GetAccessConfirmPage';
import { GetAccessEmailPage, LINK_INVALID } from './GetAccessEmailPage';
import { AuthSharedFolderPage, SHARED_POLL_MS, STATE_TEXT, UnauthSharedFolderPage } from './SharedFolderPage';

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const ACCESS_ROUTES = [
  { path: '/get-access-email/:folderToken/email/:emailToken', element: <GetAccessEmailPage /> },
  { path: '/get-access-confirm', element: <GetAccessConfirmPage /> },
  { path: '/auth-shared-folder', element: <p>Authenticated folder</p> },
  { path: '/unauth-shared-folder', element: <p>Unauthenticated folder</p> },
];

const SENT = { code_id: 'code-1', sent_to: 'j***@example.com', copy_type: 'authenticated', expires_in: 600 };
const CHECKED = { access_folder_token: 'folder-token-1', copy_type: 'authenticated', expires_at: '2026-03-06T09:00:00Z' };

function getAccess(check: unknown, send: unknown = SENT) {
  const calls = serve({ 'POST sharing/code/send/': send, 'POST sharing/code/code-1/check/': check });
  const store = makeSharingStore({ signedIn: false });
  const view = renderAt(store, ACCESS_ROUTES, '/get-access-email/T1/email/T2');
  return { calls, store, ...view };
}

async function sendAndType(code: string) {
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send Code' })));
  expect(await screen.findByTestId('code-sent-to')).toHaveTextContent('j***@example.com');
  const input = screen.getByLabelText('Confirmation code');
  fireEvent.change(input, { target: { value: code } });
  return input;
}

describe('getting access by the link', () => {
  it('sends the code to where the link went, checks it, keeps the folder token and goes on by copy type', async () => {
    const { calls, store, router } = getAccess(CHECKED);
    const input = await sendAndType('123456');
    // Spec §3: displayed like '999 999'.
    expect(input).toHaveValue('123 456');
    expect(input).toHaveAttribute('placeholder', '999 999');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Confirm' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/get-access-confirm'));
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['sharing/code/send/', { t1: 'T1', t2: 'T2' }],
      ['sharing/code/code-1/check/', { confirmation_code: '123456' }],
    ]);
    // No session: nothing was sent as a bearer.
    expect(calls.every((c) => c.headers.get('authorization') === null)).toBe(true);
    expect(store.getState().loginInfo).toEqual({ accessToken: null, refreshToken: null, accessFolderToken: 'folder-token-1' });
    expect(await screen.findByText('Access Granted')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('link', { name: 'View Shared Files' }));
    expect(router.state.location.pathname).toBe('/auth-shared-folder');
  });

  it("a wrong code says 'The code is wrong. Check it and try again.'", async () => {
    const { store } = getAccess(answer(400, { errors: [{ message: 'The code is wrong. Check it and try again.', code: 'invalid', field: 'confirmation_code' }] }));
    await sendAndType('111111');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Confirm' })));
    expect(await screen.findByText('The code is wrong. Check it and try again.')).toBeInTheDocument();
    expect(store.getState().loginInfo.accessFolderToken).toBeNull();
  });

  it("an expired code says 'This code has expired. Send a new one.', and a new one can be sent", async () => {
    const { calls } = getAccess(answer(400, { errors: [{ message: 'This code has expired. Send a new one.', code: 'code_expired' }] }));
    await sendAndType('111111');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Confirm' })));
    expect(await screen.findByText('This code has expired. Send a new one.')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send a new code' })));
    await waitFor(() => expect(calls.filter((c) => c.path === 'sharing/code/send/')).toHaveLength(2));
    // The new code starts from an empty field.
    expect(screen.getByLabelText('Confirmation code')).toHaveValue('');
  });

  it('Confirm waits for all 6 digits', async () => {
    getAccess(CHECKED);
    await sendAndType('12345');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  });

  it("a link that no longer works says 'This link is no longer valid.'", async () => {
    getAccess(CHECKED, answer(404, { errors: [{ message: LINK_INVALID, code: 'not_found' }] }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send Code' })));
    expect(await screen.findByRole('alert')).toHaveTextContent(LINK_INVALID);
  });

  it('too many codes (429) shows the service message', async () => {
    getAccess(CHECKED, answer(429, { errors: [{ message: 'Too many codes were sent. Try again in a few minutes.', code: 'rate_limited' }] }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send Code' })));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many codes were sent. Try again in a few minutes.');
  });

  it('the confirmation screen without a token says how to get one', async () => {
    serve({});
    renderAt(makeSharingStore({ signedIn: false }), ACCESS_ROUTES, '/get-access-confirm?copyType=authenticated');
    expect(await screen.findByText('There is nothing to show here. Open the link from your message again.')).toBeInTheDocument();
  });
});

function viewFolder(page: 'auth' | 'unauth', routes: Record<string, unknown>, { token = 'folder-token-1', at, signedIn = false }: { token?: string | null; at?: string; signedIn?: boolean } = {}) {
  const calls = serve(routes);
  const store = makeSharingStore({ signedIn });
  if (token) store.dispatch(folderTokenReceived(token));
  const path = page === 'auth' ? '/auth-shared-folder' : '/unauth-shared-folder';
  const view = renderAt(
    store,
    [
      { path: '/auth-shared-folder', element: <AuthSharedFolderPage /> },
      { path: '/unauth-shared-folder', element: <UnauthSharedFolderPage /> },
      { path: '/', element: <p>Start</p> },
    ],
    at ?? path,
  );
  return { calls, store, ...view };
}

describe('the shared folder views', () => {
  it('sends the folder token in X-Folder-Token, shows the watermark banner, opens a copy with the watermark and reports it viewed', async () => {
    const { calls } = viewFolder('auth', {
      'GET sharing/view/authenticated/': apiSharedFolder(),
      'POST sharing/copies/copy-1/events/': answer(204, null),
    });
    const banner = await screen.findByRole('region', { name: 'Watermark' });
    expect(within(banner).getByText('Authenticated Copy')).toBeInTheDocument();
    expect(within(banner).getByTestId('watermark-generated-for')).toHaveTextContent('Ann Owner');
    expect(within(banner).getByTestId('watermark-sent-to')).toHaveTextContent('jane@example.com');
    expect(within(banner).getByTestId('watermark-transaction-number')).toHaveTextContent('EVD-7K3Q-9XTM');
    expect(within(banner).getByText('Generated On')).toBeInTheDocument();
    const view = calls.find((c) => c.path === 'sharing/view/authenticated/');
    expect(view?.headers.get('X-Folder-Token')).toBe('folder-token-1');
    expect(view?.headers.get('authorization')).toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open Front bumper' })));
    const viewer = screen.getByRole('dialog', { name: 'Front bumper' });
    expect(within(viewer).getByRole('img', { name: 'Front bumper' })).toHaveAttribute('src', 'http://s3.local/copy-1.jpg');
    expect(within(viewer).getByText('Authenticated Copy')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path === 'sharing/copies/copy-1/events/')).toHaveLength(1));
    const event = calls.find((c) => c.path === 'sharing/copies/copy-1/events/') as ApiCall;
    expect(event.body).toEqual({ kind: 'viewed' });
    expect(event.headers.get('X-Folder-Token')).toBe('folder-token-1');
  });

  it('a signed-in recipient still sends the folder token in its own header, beside the session', async () => {
    const { calls } = viewFolder('auth', { 'GET sharing/view/authenticated/': apiSharedFolder() }, { signedIn: true });
    await screen.findByRole('region', { name: 'Watermark' });
    const view = calls.find((c) => c.path === 'sharing/view/authenticated/');
    expect(view?.headers.get('X-Folder-Token')).toBe('folder-token-1');
    expect(view?.headers.get('authorization')).toBe('Bearer a');
  });

  it('plays a video copy with the watermark over the player, and downloads a copy with its download link', async () => {
    const video = apiSharedItem({ id: 'copy-2', name: 'Dent video', media_type: 'video', url: 'http://s3.local/copy-2.mp4', download_url: 'http://s3.local/copy-2.mp4?dl', duration: 12 });
    const { calls } = viewFolder('auth', {
      'GET sharing/view/authenticated/': apiSharedFolder({ items: [video] }),
      'POST sharing/copies/copy-2/events/': answer(204, null),
    });
    const download = await screen.findByRole('link', { name: 'Download Dent video' });
    expect(download).toHaveAttribute('href', 'http://s3.local/copy-2.mp4?dl');
    fireEvent.click(download);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open Dent video' })));
    const player = screen.getByRole('dialog', { name: 'Dent video' });
    expect(within(player).getByTestId('player-media')).toHaveAttribute('src', 'http://s3.local/copy-2.mp4');
    expect(within(player).getByText('Authenticated Copy')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path === 'sharing/copies/copy-2/events/').map((c) => c.body)).toEqual([{ kind: 'downloaded' }, { kind: 'viewed' }]));
  });

  it('shows a copy still being made as preparing and refreshes until it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let n = 0;
    const { calls } = viewFolder('auth', {
      'GET sharing/view/authenticated/': () => apiSharedFolder({ items: [apiSharedItem(++n === 1 ? { state: 'preparing', url: null, download_url: null } : {})] }),
    });
    expect(await screen.findByText(STATE_TEXT.preparing)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Front bumper' })).not.toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(SHARED_POLL_MS + 100));
    expect(await screen.findByRole('button', { name: 'Open Front bumper' })).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTime(SHARED_POLL_MS * 3));
    // Nothing is preparing any more: no more polling.
    expect(calls.filter((c) => c.path === 'sharing/view/authenticated/')).toHaveLength(2);
  });

  it('an ended access (401 folder_token_invalid) shows its message and a way back, and forgets the token', async () => {
    const message = 'Your access has ended. Open the link from your message again.';
    const { store } = viewFolder('auth', { 'GET sharing/view/authenticated/': answer(401, { errors: [{ message, code: 'folder_token_invalid' }] }) });
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Back to the start' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(store.getState().loginInfo.accessFolderToken).toBeNull());
    // The message stays after the token is gone.
    expect(screen.getByRole('alert')).toHaveTextContent(message);
  });

  it('a public link shows the unauthenticated copies by ?link=, without a folder token', async () => {
    const { calls } = viewFolder(
      'unauth',
      {
        'GET sharing/view/': apiSharedFolder({
          copy_type: 'unauthenticated',
          watermark: { copy_type: 'unauthenticated', generated_for: null, sent_to: 'jane@example.com', generated_on: '2026-03-05T09:00:00Z', transaction_number: 'EVD-7K3Q-9XTM' },
        }),
        'POST sharing/copies/copy-1/events/': answer(204, null),
      },
      { token: 'folder-token-1', at: '/unauth-shared-folder?link=LINK1' },
    );
    const banner = await screen.findByRole('region', { name: 'Watermark' });
    expect(within(banner).getByText('Unauthenticated Copy')).toBeInTheDocument();
    expect(within(banner).queryByText('Generated for')).not.toBeInTheDocument();
    const view = calls.find((c) => c.path === 'sharing/view/');
    expect(view?.search).toBe('?link=LINK1');
    expect(view?.headers.get('X-Folder-Token')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Open Front bumper' })));
    await waitFor(() => expect(calls.some((c) => c.path === 'sharing/copies/copy-1/events/')).toBe(true));
    const event = calls.find((c) => c.path === 'sharing/copies/copy-1/events/');
    expect(event?.search).toBe('?link=LINK1');
    expect(event?.headers.get('X-Folder-Token')).toBeNull();
    // The public view has its own wide layout, outside the content container (spec §2).
    expect(document.querySelector('.shared-public')).not.toBeNull();
  });

  it('the unauthenticated view with the folder token asks sharing/view/ with the header', async () => {
    const { calls } = viewFolder('unauth', { 'GET sharing/view/': apiSharedFolder({ copy_type: 'unauthenticated' }) });
    await screen.findByRole('region', { name: 'Watermark' });
    expect(calls.find((c) => c.path === 'sharing/view/')?.headers.get('X-Folder-Token')).toBe('folder-token-1');
  });

  it('without a token or a link there is nothing to show', async () => {
    const { calls } = viewFolder('auth', {}, { token: null });
    expect(await screen.findByText('There is nothing to show here. Open the link from your message again.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('a server failure shows the generic message with a retry', async () => {
    viewFolder('auth', { 'GET sharing/view/authenticated/': answer(503, { errors: [{ message: 'down' }] }) });
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred. Please try again later.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
