// The contributor proves their e-mail: the spec §5 e-mail rule, a code sent, a wrong code
// highlighted (spec §5 'incorrect'), the token kept in sessionStorage and the folder opened; a
// refused link shows the server's message and nothing else.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, answer, renderAt, serve } from '../../../testing';
import { MESSAGES } from '../../../lib/validation/rules';
import { CONTRIBUTION_KEY } from '../model/token';
import { FOLDER } from '../testing/helpers';
import { ContributionVerificationPage } from './ContributionVerificationPage';

beforeEach(() => window.sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

function open(at = `/organization-sharing/verification/${FOLDER}?link=L-1`) {
  return renderAt(
    makeTestStore({ signedIn: false }),
    [
      { path: '/organization-sharing/verification/:folderId', element: <ContributionVerificationPage /> },
      { path: '/organization-sharing/folder/:folderId', element: <p>Contributor folder</p> },
    ],
    at,
  );
}

const SENT = { code_id: 'code-1', sent_to: 'c***@example.com', expires_in: 600 };

describe('proving the e-mail', () => {
  it('checks the e-mail by the spec rule before sending', async () => {
    const calls = serve({});
    open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByText(MESSAGES.email)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends a code, then keeps the token and opens the folder', async () => {
    const calls = serve({
      'POST sharing/anonymous/verification/send/': SENT,
      'POST sharing/anonymous/verification/code-1/check/': { contribution_token: 'ct-9', folder_id: FOLDER, expires_at: '2099-01-01T00:00:00Z' },
    });
    const { router } = open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByText('We sent a code to c***@example.com.')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ link: 'L-1', email: 'cy@example.com' });
    await user.type(screen.getByLabelText('Confirmation code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/organization-sharing/folder/${FOLDER}`));
    expect(calls[1]?.body).toEqual({ confirmation_code: '123456' });
    expect(JSON.parse(window.sessionStorage.getItem(CONTRIBUTION_KEY) ?? '{}')).toEqual({
      folderId: FOLDER,
      token: 'ct-9',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    // Never in the persisted store.
    expect(window.localStorage.getItem('persist:evidentia') ?? '').not.toContain('ct-9');
  });

  it('highlights a wrong code with the server message', async () => {
    serve({
      'POST sharing/anonymous/verification/send/': SENT,
      'POST sharing/anonymous/verification/code-1/check/': answer(400, {
        errors: [{ message: 'The code is incorrect.', code: 'invalid', field: 'confirmation_code' }],
      }),
    });
    const { router } = open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    await user.type(await screen.findByLabelText('Confirmation code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The code is incorrect.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe(`/organization-sharing/verification/${FOLDER}`);
    expect(window.sessionStorage.getItem(CONTRIBUTION_KEY)).toBeNull();
  });

  it('shows an expired link with the server message and nothing else', async () => {
    serve({
      'POST sharing/anonymous/verification/send/': answer(400, { errors: [{ message: 'This link has expired.', code: 'link_expired' }] }),
    });
    open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired.');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows an unknown link as the server says', async () => {
    serve({ 'POST sharing/anonymous/verification/send/': answer(404, { errors: [{ message: 'This link is not valid.', code: 'not_found' }] }) });
    open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid.');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
