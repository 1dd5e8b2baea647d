// The futuregram screens open to anyone: the executor's one screen for accept and decline (the
// address must be the invitation's: the service's field message shows under it; an accepted
// executor of an undated futuregram can ask for the release after confirming), and the view of a
// released futuregram, whose expired link offers a fresh one by mail and never shows it.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, renderAt, serve } from '../../../testing';
import { makeSharingStore } from '../testing/helpers';
import { ExecutorPage } from './ExecutorPage';
import { FuturegramViewPage } from './SharedFolderPage';

afterEach(() => vi.unstubAllGlobals());

const standing = (overrides: Record<string, unknown> = {}) => ({
  state: 'accepted',
  owner_name: 'Ann Owner',
  folder_name: 'Lease end',
  release_at: null,
  futuregram_state: 'pending',
  due_at: null,
  release_requested: false,
  can_request_release: true,
  can_veto: false,
  ...overrides,
});

function executorAt(path: string, routes: Record<string, unknown>) {
  const calls = serve(routes);
  renderAt(makeSharingStore({ signedIn: false }), [{ path: '/futuregram/executor/:action/:token', element: <ExecutorPage /> }], path);
  return calls;
}

const typeEmail = (value: string) => fireEvent.change(screen.getByLabelText('Your e-mail address'), { target: { value } });

describe('/futuregram/executor/{action}/{token}', () => {
  it('shows the service message under the address when it is not the invitation’s', async () => {
    const calls = executorAt('/futuregram/executor/accept/Tok3n', {
      'POST sharing/futuregram/executor/respond/Tok3n/': answer(400, {
        errors: [{ field: 'email', message: 'This is not the address the invitation was sent to.', code: 'invalid' }],
      }),
    });
    typeEmail('someone@example.com');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(await screen.findByText('This is not the address the invitation was sent to.')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ email: 'someone@example.com', action: 'accepted' });
  });

  it('declines on the decline link, and an accepted executor asks for the release after confirming', async () => {
    const calls = executorAt('/futuregram/executor/decline/Tok3n', {
      'POST sharing/futuregram/executor/respond/Tok3n/': (call: { body: { action: string } }) =>
        call.body.action === 'declined'
          ? standing({ state: 'declined', can_request_release: false })
          : call.body.action === 'accepted'
            ? standing()
            : standing({ futuregram_state: 'waiting', release_requested: true, can_request_release: false, due_at: '2026-12-01T10:00:00Z' }),
    });
    typeEmail('lawyer@example.com');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Decline' })));
    expect(await screen.findByTestId('executor-standing')).toHaveTextContent("You declined to be an executor of Ann Owner's futuregram of Lease end.");
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept instead' })));
    await waitFor(() => expect(screen.getByTestId('executor-standing')).toHaveTextContent('you can ask for its release'));
    fireEvent.click(screen.getByRole('button', { name: 'Ask for the release' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Ask for the release' })));
    await waitFor(() => expect(screen.getByTestId('executor-standing')).toHaveTextContent('The release of'));
    expect(calls.map((c) => (c.body as { action: string }).action)).toEqual(['declined', 'accepted', 'release']);
  });

  it('fills in the address the link carries and answers with it', async () => {
    const calls = executorAt('/futuregram/executor/accept/Tok3n?email=lawyer%2Bfg%40example.com', {
      'POST sharing/futuregram/executor/respond/Tok3n/': standing(),
    });
    expect(screen.getByLabelText('Your e-mail address')).toHaveValue('lawyer+fg@example.com');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    await screen.findByTestId('executor-standing');
    expect(calls[0]?.body).toEqual({ email: 'lawyer+fg@example.com', action: 'accepted' });
  });

  it('sends a link with another action to the start screen', () => {
    serve({});
    renderAt(
      makeSharingStore({ signedIn: false }),
      [
        { path: '/futuregram/executor/:action/:token', element: <ExecutorPage /> },
        { path: '/', element: <p>The start screen</p> },
      ],
      '/futuregram/executor/approve/Tok3n',
    );
    expect(screen.getByText('The start screen')).toBeInTheDocument();
  });

  it('says an unknown link is no longer valid', async () => {
    executorAt('/futuregram/executor/accept/Gone', {});
    typeEmail('lawyer@example.com');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(await screen.findByText('This link is no longer valid.')).toBeInTheDocument();
  });
});

describe('/futuregram/view/{token}', () => {
  it('offers a fresh link for an expired one and says where it went, never showing it', async () => {
    const calls = serve({
      'GET sharing/futuregram/view/Old/': answer(400, {
        errors: [{ message: 'This link has expired. We can send a new one to your address.', code: 'link_expired' }],
      }),
      'POST sharing/futuregram/refresh-token/Old/': answer(202, { sent_to: 'h***@example.com' }),
    });
    renderAt(makeSharingStore({ signedIn: false }), [{ path: '/futuregram/view/:token', element: <FuturegramViewPage /> }], '/futuregram/view/Old');
    expect(await screen.findByText('This link has expired. We can send a new one to your address.')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send me a new link' })));
    expect(await screen.findByText('A new link was sent to h***@example.com. Open it from your messages.')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET sharing/futuregram/view/Old/', 'POST sharing/futuregram/refresh-token/Old/']);
  });

  it('says an unknown link is no longer valid', async () => {
    serve({});
    renderAt(makeSharingStore({ signedIn: false }), [{ path: '/futuregram/view/:token', element: <FuturegramViewPage /> }], '/futuregram/view/Nope');
    expect(await screen.findByText('This link is no longer valid.')).toBeInTheDocument();
  });
});
