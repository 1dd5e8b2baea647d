// Log in: the links to the recovery screens, a wrong password under its field, the return to the
// origin, and a deleted account (403 account_deleted): its message, 'Recover Account' with the
// values just typed, signed in with a success message; a refused recovery in the snackbar.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { ACCOUNT_RECOVERED, LogInPage } from './LogInPage';
import { SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { NETWORK_LOST } from '../../../components/NetworkBanner';

afterEach(() => vi.unstubAllGlobals());

const DELETED = 'This account was deleted. You can recover it until Dec 21, 2026.';

function open(state?: { from: string }) {
  const store = makeTestStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/log-in', element: <LogInPage /> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
      { path: '/dashboard/settings', element: <p>Settings screen</p> },
      { path: '/recovery/:type', element: <p>Recovery screen</p> },
    ],
    '/log-in',
  );
  if (state) void view.router.navigate('/log-in', { state, replace: true });
  return { ...view, store };
}

async function logIn(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username or Email'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log In' }));
  return user;
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

const deletedAnswer = answer(403, { errors: [{ message: DELETED, code: 'account_deleted' }], request_id: 'r' });

describe('log in', () => {
  it('links to the forgotten-username and forgotten-password screens', () => {
    serve({});
    open();
    expect(screen.getByRole('link', { name: 'Forgot Username?' })).toHaveAttribute('href', '/recovery/username');
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/recovery/password');
  });

  it('shows a wrong password under the password field', async () => {
    serve({
      'POST accounts/login/': answer(400, {
        errors: [{ message: 'Wrong Password. Please try again', code: 'invalid', field: 'password' }],
      }),
    });
    open();
    await logIn('ann', 'Wrong12#pass');
    await waitFor(() => expect(errorOf('Password')).toBe('Wrong Password. Please try again'));
    expect(screen.queryByRole('button', { name: 'Recover Account' })).not.toBeInTheDocument();
  });

  it('never calls the password wrong when the server failed or no answer came', async () => {
    serve({ 'POST accounts/login/': answer(503, 'upstream connect error') });
    const { store } = open();
    await logIn('ann', 'Secret12#');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SERVER_ERROR_MESSAGE }));
    expect(errorOf('Password')).toBeFalsy();

    serve({
      'POST accounts/login/': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: NETWORK_LOST, type: 'error' }));
    expect(errorOf('Password')).toBeFalsy();
  });

  it('sends one log-in for a press made again while the first is being checked', async () => {
    const calls = serve({ 'POST accounts/login/': { access: 'a', refresh: 'r' } });
    open();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username or Email'), 'ann');
    await user.type(screen.getByLabelText('Password'), 'Secret12#');
    const button = screen.getByRole('button', { name: 'Log In' });
    // Two presses before the form's check has answered the first.
    fireEvent.click(button);
    fireEvent.click(button);
    await screen.findByText('Home screen');
    expect(calls.filter((c) => c.path === 'accounts/login/')).toHaveLength(1);
  });

  it('signs in and returns to the page the visitor came from', async () => {
    const calls = serve({ 'POST accounts/login/': { access: 'a1', refresh: 'r1' } });
    const { store, router } = open({ from: '/dashboard/settings' });
    await logIn('ann', 'Secret12#');
    await screen.findByText('Settings screen');
    expect(router.state.location.pathname).toBe('/dashboard/settings');
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'a1', refreshToken: 'r1' });
    expect(calls[0]?.body).toEqual({ username: 'ann', password: 'Secret12#' });
  });

  it('offers to recover a deleted account with the values just typed', async () => {
    const calls = serve({ 'POST accounts/login/': deletedAnswer, 'POST accounts/recover/': { access: 'a2', refresh: 'r2' } });
    const { store, router } = open();
    const user = await logIn('ann', 'Secret12#');
    expect(await screen.findByText(DELETED)).toBeInTheDocument();
    // The message is not a wrong-password error.
    expect(errorOf('Password')).toBeUndefined();
    // What was typed afterwards does not change which account is recovered.
    await user.type(screen.getByLabelText('Username or Email'), 'x');
    await user.click(screen.getByRole('button', { name: 'Recover Account' }));
    await screen.findByText('Home screen');
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', 'accounts/login/', { username: 'ann', password: 'Secret12#' }],
      ['POST', 'accounts/recover/', { username: 'ann', password: 'Secret12#' }],
    ]);
    expect(router.state.location.pathname).toBe('/dashboard/home');
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'a2', refreshToken: 'r2' });
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'success', message: ACCOUNT_RECOVERED });
  });

  it('shows a refused recovery in the snackbar and stays signed out', async () => {
    serve({
      'POST accounts/login/': deletedAnswer,
      'POST accounts/recover/': answer(400, { errors: [{ message: 'This account can no longer be recovered.', code: 'invalid' }] }),
    });
    const { store, router } = open();
    const user = await logIn('ann', 'Secret12#');
    await user.click(await screen.findByRole('button', { name: 'Recover Account' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'This account can no longer be recovered.',
      }),
    );
    expect(store.getState().loginInfo.accessToken).toBeNull();
    expect(router.state.location.pathname).toBe('/log-in');
  });

  it('treats any other 403 as a failed log-in', async () => {
    serve({ 'POST accounts/login/': answer(403, { errors: [{ message: 'This account is blocked.', code: 'forbidden' }] }) });
    open();
    await logIn('ann', 'Secret12#');
    await waitFor(() => expect(errorOf('Password')).toBe('This account is blocked.'));
    expect(screen.queryByRole('button', { name: 'Recover Account' })).not.toBeInTheDocument();
  });

  it('forgets the deleted-account offer when the next log-in fails otherwise', async () => {
    let first = true;
    serve({
      'POST accounts/login/': () => {
        if (!first) return answer(400, { errors: [{ message: 'Wrong Password. Please try again', code: 'invalid', field: 'password' }] });
        first = false;
        return deletedAnswer;
      },
    });
    open();
    const user = await logIn('ann', 'Secret12#');
    await screen.findByRole('button', { name: 'Recover Account' });
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(errorOf('Password')).toBe('Wrong Password. Please try again'));
    expect(screen.queryByRole('button', { name: 'Recover Account' })).not.toBeInTheDocument();
  });
});
