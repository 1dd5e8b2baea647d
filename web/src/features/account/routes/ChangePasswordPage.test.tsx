// /change-password: the rule messages word for word (spec §5 Password), the mismatch message, a
// wrong current password under its field, the two calls in order, the new tokens stored and the
// way back to Settings.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { ChangePasswordPage } from './ChangePasswordPage';

afterEach(() => vi.unstubAllGlobals());

function open() {
  const store = makeTestStore();
  const { router } = renderAt(
    store,
    [
      { path: '/change-password', element: <ChangePasswordPage /> },
      { path: '/dashboard/settings', element: <h1>Settings page</h1> },
    ],
    '/change-password',
  );
  return { store, router };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

async function fill(current: string, next: string, confirm = next) {
  const user = userEvent.setup();
  for (const [label, value] of [
    ['Current password', current],
    ['New password', next],
    ['Confirm new password', confirm],
  ] as const) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
  await user.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('change password', () => {
  it('shows every rule message word for word and sends nothing', async () => {
    const calls = serve({});
    open();
    await fill('', '');
    expect(errorOf('Current password')).toBe('This field is required');
    expect(errorOf('New password')).toBe('This field is required');
    expect(errorOf('Confirm new password')).toBe('This field is required');
    await fill('x', 'Ab1#');
    expect(errorOf('Current password')).toBeUndefined();
    expect(errorOf('New password')).toBe('Minimum 8 characters');
    await fill('x', `Ab1#${'y'.repeat(29)}`);
    expect(errorOf('New password')).toBe('Maximum 32 characters');
    await fill('x', 'abcdefgh1#');
    expect(errorOf('New password')).toBe('Wrong Password. Please try again');
    await fill('x', 'Abcdefgh1#', 'Abcdefgh1!');
    expect(errorOf('New password')).toBeUndefined();
    expect(errorOf('Confirm new password')).toBe('Passwords do not match');
    expect(calls).toEqual([]);
  }, 30000);

  it('checks the current password, sets the new one with the token, stores the new tokens and returns to Settings', async () => {
    const calls = serve({
      'POST accounts/password/verify/': answer(200, { password_token: 'pt1', expires_in_seconds: 600 }),
      'POST accounts/password/reset/': answer(200, { access: 'new-access', refresh: 'new-refresh' }),
    });
    const { store, router } = open();
    await fill('Old12345#', 'New12345#');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/settings'));
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', 'accounts/password/verify/', { password: 'Old12345#' }],
      ['POST', 'accounts/password/reset/', { new_password: 'New12345#', password_token: 'pt1' }],
    ]);
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'success', message: 'Your password was changed.' });
  });

  it('shows a wrong current password under its field and sets nothing', async () => {
    const calls = serve({
      'POST accounts/password/verify/': answer(400, { errors: [{ message: 'Wrong Password. Please try again', field: 'password' }] }),
    });
    const { store, router } = open();
    await fill('Nope1234#', 'New12345#');
    await waitFor(() => expect(errorOf('Current password')).toBe('Wrong Password. Please try again'));
    expect(calls.map((c) => c.path)).toEqual(['accounts/password/verify/']);
    expect(router.state.location.pathname).toBe('/change-password');
    expect(store.getState().loginInfo.accessToken).toBe('a');
  });

  it("puts the server's message about the new password under it", async () => {
    serve({
      'POST accounts/password/verify/': answer(200, { password_token: 'pt1', expires_in_seconds: 600 }),
      'POST accounts/password/reset/': answer(400, { errors: [{ message: 'Maximum 32 characters', field: 'new_password' }] }),
    });
    const { store } = open();
    await fill('Old12345#', 'New12345#');
    await waitFor(() => expect(errorOf('New password')).toBe('Maximum 32 characters'));
    expect(store.getState().loginInfo.accessToken).toBe('a');
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('shows any other error in the snackbar', async () => {
    serve({
      'POST accounts/password/verify/': answer(200, { password_token: 'pt1', expires_in_seconds: 600 }),
      'POST accounts/password/reset/': answer(400, {
        errors: [{ message: 'Please confirm your password again.', field: 'password_token' }],
      }),
    });
    const { store } = open();
    await fill('Old12345#', 'New12345#');
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'Please confirm your password again.' }),
    );
  });
});
