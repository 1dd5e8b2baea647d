// The conversation of a share: messages oldest first with their authors ('You' for one's own),
// plain text shown as text, a send that carries its own client id (a retry resends the same id),
// the field messages, the 30-second poll that asks only for what came after the last message and
// stops when the chat closes, a refresh on focus, read-only after revocation, and a recipient who
// speaks with the folder token on the anonymous call; the owner's list of conversations with
// unread counts and archive after a confirmation.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { folderTokenReceived } from '../../../lib/session/loginInfoSlice';
import { CHAT_POLL_MS } from '../model/useChat';
import { ARCHIVE_TITLE, ChatPage, ChatsPage } from '../routes/ChatsPage';
import { AuthSharedFolderPage } from '../routes/SharedFolderPage';
import { answer, type ApiCall, renderAt, serve } from '../../../testing';
import { apiSharedFolder, makeSharingStore } from '../testing/helpers';
import { NOT_AVAILABLE, READ_ONLY } from './ChatPanel';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const message = (seq: number, overrides: Record<string, unknown> = {}) => ({
  id: `m-${seq}`,
  seq,
  author_name: 'j***@example.com',
  from_owner: false,
  mine: false,
  client_message_id: `c-${seq}`,
  content: `Message ${seq}`,
  created_at: '2026-03-05T09:00:00Z',
  ...overrides,
});

const chat = (messages: unknown[], overrides: Record<string, unknown> = {}) => ({
  sharing_id: 'share-1',
  folder_name: 'Car rental',
  read_only: false,
  last_seq: messages.length ? (messages.at(-1) as { seq: number }).seq : 0,
  messages,
  ...overrides,
});

const CHAT = 'GET sharing/shared/share-1/chat/';
const OWNER_SEND = 'POST sharing/shared/share-1/chat/messages/';
const afterOf = (call: ApiCall) => new URLSearchParams(call.search).get('after');
const reads = (calls: ApiCall[]) => calls.filter((c) => `${c.method} ${c.path}` === CHAT);

function ownerChat(routes: Record<string, unknown>) {
  const calls = serve(routes);
  const store = makeSharingStore();
  const view = renderAt(store, [{ path: '/chats/:sharingId', element: <ChatPage /> }, { path: '/chats', element: <p>List</p> }], '/chats/share-1');
  return { calls, store, ...view };
}

async function write(text: string) {
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
}

describe('the conversation of a share', () => {
  it('shows the messages oldest first, as text, with who wrote them', async () => {
    ownerChat({
      [CHAT]: chat([
        message(1),
        message(2, { author_name: 'Ann Owner', from_owner: true, mine: true, content: '<b>not bold</b>' }),
      ]),
    });
    const list = await screen.findByRole('list', { name: 'Messages of this share' });
    await within(list).findByText('Message 1');
    const rows = within(list).getAllByTestId('chat-message');
    expect(rows.map((r) => r.querySelector('.chat__author')?.textContent)).toEqual(['j***@example.com', 'You']);
    const mine = rows[1]!;
    expect(within(mine).getByText('<b>not bold</b>')).toBeInTheDocument();
    expect(mine.querySelector('b')).toBeNull();
  });

  it('sends with a client id, shows the message, then asks only for what came after the last it has', async () => {
    let stored = [message(1)];
    const { calls } = ownerChat({
      [CHAT]: (call: ApiCall) => chat(stored.filter((m) => m.seq > Number(afterOf(call)))),
      [OWNER_SEND]: (call: ApiCall) => {
        const body = call.body as { content: string; client_message_id: string };
        const sent = message(2, { content: body.content, client_message_id: body.client_message_id, mine: true, from_owner: true, author_name: 'Ann Owner' });
        stored = [...stored, sent];
        return answer(201, sent);
      },
    });
    await screen.findByText('Message 1');
    await write('The keys are with the concierge.');
    // Stored: among the thread's messages, no longer on its way.
    await screen.findByText('The keys are with the concierge.', { selector: '[data-testid="chat-message"] .chat__content' });
    const sent = calls.find((c) => `${c.method} ${c.path}` === OWNER_SEND);
    expect(sent?.body).toEqual({ content: 'The keys are with the concierge.', client_message_id: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/) });
    await waitFor(() => expect(reads(calls).map(afterOf)).toEqual(['0', '1']));
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it('says what is wrong with a draft and sends nothing', async () => {
    const { calls } = ownerChat({ [CHAT]: chat([]) });
    await screen.findByText('No messages yet.');
    await write('   ');
    expect(await screen.findByText('Write a message.')).toBeInTheDocument();
    await write('x'.repeat(2001));
    expect(await screen.findByText('Maximum 2000 characters')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keeps a failed send with its reason, and Retry sends the same message id again', async () => {
    let attempts = 0;
    const ids: string[] = [];
    ownerChat({
      [CHAT]: chat([]),
      [OWNER_SEND]: (call: ApiCall) => {
        const body = call.body as { content: string; client_message_id: string };
        ids.push(body.client_message_id);
        if (++attempts === 1) return answer(503, { errors: [{ message: 'Something went wrong on our side. Try again.', code: 'service_unavailable' }] });
        return answer(201, message(1, { content: body.content, client_message_id: body.client_message_id, mine: true }));
      },
    });
    await screen.findByText('No messages yet.');
    await write('Hello?');
    const outgoing = await screen.findByTestId('chat-outgoing');
    // The server's failure is on screen already (the app's snackbar): the row only says it did not go.
    expect(await within(outgoing).findByText('Not sent.')).toBeInTheDocument();
    fireEvent.click(within(outgoing).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('chat-outgoing')).not.toBeInTheDocument());
    expect(screen.getByText('Hello?')).toBeInTheDocument();
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it('polls every 30 seconds and on focus while open, and stops when closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, unmount } = ownerChat({ [CHAT]: (call: ApiCall) => chat(afterOf(call) === '0' ? [message(1), message(2)] : []) });
    await screen.findByText('Message 2');
    await act(async () => vi.advanceTimersByTime(CHAT_POLL_MS - 1000));
    expect(reads(calls)).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(1500));
    await waitFor(() => expect(reads(calls)).toHaveLength(2));
    expect(afterOf(reads(calls)[1]!)).toBe('2');
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(reads(calls)).toHaveLength(3));
    unmount();
    await act(async () => vi.advanceTimersByTime(CHAT_POLL_MS * 3));
    expect(reads(calls)).toHaveLength(3);
  });

  it('warns of a message too long while it is typed', async () => {
    ownerChat({ [CHAT]: chat([]) });
    await screen.findByText('No messages yet.');
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'x'.repeat(2001) } });
    expect(await screen.findByText('Maximum 2000 characters')).toBeInTheDocument();
    expect(screen.getByText('2001/2000')).toHaveClass('chat__count--over');
  });

  it('a conversation that is not there offers nothing to retry and nowhere to write', async () => {
    ownerChat({ [CHAT]: answer(404, { errors: [{ message: 'Not found.', code: 'not_found' }] }) });
    expect(await screen.findByText(NOT_AVAILABLE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Message')).not.toBeInTheDocument();
  });

  it('a revoked share is read-only', async () => {
    ownerChat({ [CHAT]: chat([message(1)], { read_only: true }) });
    expect(await screen.findByText(READ_ONLY)).toBeInTheDocument();
    expect(screen.queryByLabelText('Message')).not.toBeInTheDocument();
  });

  it('a recipient speaks with the folder token on the anonymous call, from the shared folder', async () => {
    const calls = serve({
      'GET sharing/view/authenticated/': apiSharedFolder({ sharing_id: 'share-1' }),
      [CHAT]: chat([message(1, { author_name: 'Ann Owner', from_owner: true })]),
      'POST sharing/shared/share-1/chat/messages/anonymous/': (call: ApiCall) =>
        answer(201, message(2, { content: (call.body as { content: string }).content, mine: true })),
    });
    const store = makeSharingStore({ signedIn: false });
    store.dispatch(folderTokenReceived('folder-token-1'));
    renderAt(store, [{ path: '/auth-shared-folder', element: <AuthSharedFolderPage /> }], '/auth-shared-folder');
    const section = await screen.findByRole('region', { name: 'Messages with the sender' });
    await within(section).findByText('Message 1');
    await write('Received, thank you.');
    await within(section).findByText('Received, thank you.');
    const sent = calls.find((c) => c.path === 'sharing/shared/share-1/chat/messages/anonymous/');
    expect(sent?.headers.get('X-Folder-Token')).toBe('folder-token-1');
    expect(sent?.headers.get('Authorization')).toBeNull();
    expect(reads(calls)[0]?.headers.get('X-Folder-Token')).toBe('folder-token-1');
  });
});

describe("the owner's conversations", () => {
  const summary = (overrides: Record<string, unknown> = {}) => ({
    sharing_id: 'share-1',
    folder_id: 'folder-1',
    folder_name: 'Car rental',
    revoked: false,
    last_seq: 3,
    last_message_at: '2026-03-05T09:00:00Z',
    last_author_name: 'j***@example.com',
    last_content: 'Photos attached?',
    unread: 2,
    ...overrides,
  });

  it('lists each with its last message and unread count, and archives after asking', async () => {
    let listed = [summary()];
    const calls = serve({
      'GET sharing/sharing-with-chats/': () => listed,
      'POST sharing/shared/share-1/chat/archive/': () => {
        listed = [];
        return answer(204, null);
      },
    });
    renderAt(makeSharingStore(), [{ path: '/chats', element: <ChatsPage /> }, { path: '/chats/:sharingId', element: <p>Chat</p> }], '/chats');
    const row = await screen.findByTestId('chat-row');
    expect(within(row).getByRole('link', { name: 'Car rental, 2 unread' })).toHaveAttribute('href', '/chats/share-1');
    expect(within(row).getByText('Photos attached?')).toBeInTheDocument();
    expect(within(row).getByText(/^j\*\*\*@example\.com · /)).toBeInTheDocument();
    expect(within(row).getByTestId('chat-unread')).toHaveTextContent('2 new');
    fireEvent.click(within(row).getByRole('button', { name: 'Archive Car rental' }));
    const dialog = await screen.findByRole('dialog', { name: ARCHIVE_TITLE });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(screen.queryByTestId('chat-row')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ confirm: true });
    expect(await screen.findByText(/No conversations yet/)).toBeInTheDocument();
  });
});
