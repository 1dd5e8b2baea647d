// Forgot password: username -> channel (SMS only with a phone hint; the communication method
// preselected) -> the password_reset code -> the new password (spec §5 Password, messages word
// for word) -> signed in on Home with 'Your password has been changed.'. Every call's body, the
// server errors under their fields, resend and back.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { NEW_CODE_SENT } from '../components/EmailCodeStep';
import { PASSWORD_CHANGED, preferredChannel } from './RecoveryPassword';
import { RecoveryPage } from './RecoveryPage';

afterEach(() => vi.unstubAllGlobals());

const OPTIONS = { email_hint: 'a***@example.com', phone_hint: '+1 *******100', communication_method: 'email' };
const NEW_PASSWORD = 'Newpass12#';

function open() {
  const store = makeTestStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/recovery/:type', element: <RecoveryPage /> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
      { path: '/log-in', element: <p>Log-in screen</p> },
    ],
    '/recovery/password',
  );
  return { ...view, store };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

const user = () => userEvent.setup();

async function account(username: string) {
  const u = user();
  const field = screen.getByLabelText('Username or Email');
  await u.clear(field);
  if (username) await u.type(field, username);
  await u.click(screen.getByRole('button', { name: 'Continue' }));
}

async function code(digits: string) {
  const u = user();
  const field = await screen.findByLabelText('Confirmation code');
  await u.clear(field);
  await u.type(field, digits);
  await u.click(screen.getByRole('button', { name: 'Confirm' }));
}

async function passwords(first: string, second: string) {
  const u = user();
  for (const [label, value] of [
    ['New password', first],
    ['Confirm new password', second],
  ] as const) {
    const field = await screen.findByLabelText(label);
    await u.clear(field);
    if (value) await u.type(field, value);
  }
  await u.click(screen.getByRole('button', { name: 'Set Password' }));
}

const happyRoutes = (options: Record<string, unknown> = OPTIONS) => ({
  'POST accounts/username-has-phone/verify/': options,
  'POST accounts/confirmation-code/send/': (call: ApiCall) => ({
    expires_in_seconds: 600,
    sent_to: (call.body as { channel: string }).channel === 'sms' ? '+1 *******100' : 'a***@example.com',
  }),
  'POST accounts/confirmation-code/verify/': { verification_token: 'vt-1' },
  'POST accounts/password/reset/': { access: 'a9', refresh: 'r9' },
});

describe('forgot password', () => {
  it('asks for the username or e-mail first', async () => {
    const calls = serve({});
    open();
    await account('');
    expect(errorOf('Username or Email')).toBe('This field is required');
    expect(calls).toEqual([]);
  });

  it('puts an unknown account under the field', async () => {
    serve({
      'POST accounts/username-has-phone/verify/': answer(400, {
        errors: [{ message: 'No account found with this username.', code: 'not_found', field: 'username' }],
      }),
    });
    open();
    await account('nobody');
    await waitFor(() => expect(errorOf('Username or Email')).toBe('No account found with this username.'));
  });

  it('goes from the username to a new password and signs in', async () => {
    const calls = serve(happyRoutes());
    const { store, router } = open();
    await account('ann@example.com');

    // E-mail is the account's communication method; SMS is offered because it has a phone.
    expect(await screen.findByRole('radio', { name: 'E-mail a***@example.com' })).toBeChecked();
    const sms = screen.getByRole('radio', { name: 'SMS +1 *******100' });
    expect(sms).not.toBeChecked();
    await user().click(sms);
    await user().click(screen.getByRole('button', { name: 'Send Code' }));

    expect(await screen.findByText('+1 *******100')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await code('123456');

    await passwords(NEW_PASSWORD, NEW_PASSWORD);
    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/dashboard/home');
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'a9', refreshToken: 'r9' });
    expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'success', message: PASSWORD_CHANGED });
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['accounts/username-has-phone/verify/', { username: 'ann@example.com' }],
      ['accounts/confirmation-code/send/', { username: 'ann@example.com', purpose: 'password_reset', channel: 'sms' }],
      ['accounts/confirmation-code/verify/', { username: 'ann@example.com', code: '123456', purpose: 'password_reset' }],
      ['accounts/password/reset/', { username: 'ann@example.com', verification_token: 'vt-1', new_password: NEW_PASSWORD }],
    ]);
  });

  it('preselects SMS when it is the communication method', async () => {
    serve(happyRoutes({ ...OPTIONS, communication_method: 'sms' }));
    open();
    await account('ann');
    expect(await screen.findByRole('radio', { name: 'SMS +1 *******100' })).toBeChecked();
  });

  it('offers only e-mail without a phone hint', async () => {
    const calls = serve(happyRoutes({ ...OPTIONS, phone_hint: null, communication_method: 'sms' }));
    open();
    await account('ann');
    expect(await screen.findByRole('radio', { name: 'E-mail a***@example.com' })).toBeChecked();
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    await user().click(screen.getByRole('button', { name: 'Send Code' }));
    await screen.findByLabelText('Confirmation code');
    expect(calls[1]?.body).toEqual({ username: 'ann', purpose: 'password_reset', channel: 'email' });
  });

  it('picks the channel from the communication method and the phone hint', () => {
    const options = { emailHint: 'a***@example.com', phoneHint: '+1 ***', communicationMethod: 'sms' as const };
    expect(preferredChannel(options)).toBe('sms');
    expect(preferredChannel({ ...options, communicationMethod: 'email' })).toBe('email');
    expect(preferredChannel({ ...options, phoneHint: null })).toBe('email');
  });

  it('shows a sending failure in the snackbar and stays on the channel step', async () => {
    serve({
      ...happyRoutes(),
      'POST accounts/confirmation-code/send/': answer(429, {
        errors: [{ message: 'Please wait before asking for a new code.', code: 'rate_limited' }],
      }),
    });
    const { store } = open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'Please wait before asking for a new code.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Send Code' })).toBeInTheDocument();
  });

  it('shows a wrong code under the field and sends a new one on request', async () => {
    const calls = serve({
      ...happyRoutes(),
      'POST accounts/confirmation-code/verify/': answer(400, {
        errors: [{ message: 'The confirmation code is incorrect.', code: 'invalid', field: 'confirmation_code' }],
      }),
    });
    const { store } = open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await code('111111');
    expect(await screen.findByText('The confirmation code is incorrect.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');

    await user().click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: NEW_CODE_SENT }));
    expect(screen.queryByText('The confirmation code is incorrect.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toHaveValue('');
    const sends = calls.filter((c) => c.path === 'accounts/confirmation-code/send/').map((c) => c.body);
    expect(sends).toEqual([
      { username: 'ann', purpose: 'password_reset', channel: 'email' },
      { username: 'ann', purpose: 'password_reset', channel: 'email' },
    ]);
  });

  it('highlights the code and shows a code error without a field in the snackbar', async () => {
    serve({
      ...happyRoutes(),
      'POST accounts/confirmation-code/verify/': answer(400, { errors: [{ message: 'This code was not asked for.', code: 'invalid' }] }),
    });
    const { store } = open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await code('111111');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'This code was not asked for.' }));
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
  });

  it('checks the new password with the spec §5 rules and their messages', async () => {
    const calls = serve(happyRoutes());
    open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await code('123456');
    await screen.findByLabelText('New password');
    const before = calls.length;

    await passwords('', '');
    expect(errorOf('New password')).toBe('This field is required');
    expect(errorOf('Confirm new password')).toBe('This field is required');
    await passwords('Ab1#', 'Ab1#');
    expect(errorOf('New password')).toBe('Minimum 8 characters');
    await passwords(`Ab1#${'a'.repeat(29)}`, 'x');
    expect(errorOf('New password')).toBe('Maximum 32 characters');
    await passwords('abcdefgh1#', 'abcdefgh1#');
    expect(errorOf('New password')).toBe('Wrong Password. Please try again');
    await passwords(NEW_PASSWORD, 'Newpass12!');
    expect(errorOf('New password')).toBeUndefined();
    expect(errorOf('Confirm new password')).toBe('Passwords do not match');
    expect(calls.length).toBe(before);
  }, 30000);

  it('puts a refused new password under its field', async () => {
    serve({
      ...happyRoutes(),
      'POST accounts/password/reset/': answer(400, {
        errors: [{ message: 'Wrong Password. Please try again', code: 'invalid', field: 'new_password' }],
      }),
    });
    const { store } = open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await code('123456');
    await passwords(NEW_PASSWORD, NEW_PASSWORD);
    await waitFor(() => expect(errorOf('New password')).toBe('Wrong Password. Please try again'));
    expect(store.getState().loginInfo.accessToken).toBeNull();
  });

  it('shows an expired verification in the snackbar', async () => {
    serve({
      ...happyRoutes(),
      'POST accounts/password/reset/': answer(400, {
        errors: [
          { message: 'The confirmation code has expired. Please request a new code.', code: 'expired', field: 'verification_token' },
        ],
      }),
    });
    const { store } = open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await code('123456');
    await passwords(NEW_PASSWORD, NEW_PASSWORD);
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'The confirmation code has expired. Please request a new code.',
      }),
    );
  });

  it('goes back step by step', async () => {
    serve(happyRoutes());
    open();
    await account('ann');
    await user().click(await screen.findByRole('button', { name: 'Send Code' }));
    await screen.findByLabelText('Confirmation code');
    await user().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'Send Code' })).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByLabelText('Username or Email')).toBeInTheDocument();
  });
});
