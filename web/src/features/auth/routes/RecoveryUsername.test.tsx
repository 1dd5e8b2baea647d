// Forgot username: by e-mail and by phone (spec §5 rules and their messages), the bodies posted,
// the sent message with its 'Log in' button, server field errors under their fields, other
// errors in the snackbar, and a 5xx left to the generic message.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { RecoveryPage } from './RecoveryPage';

afterEach(() => vi.unstubAllGlobals());

function open(path = '/recovery/username') {
  const store = makeTestStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/recovery/:type', element: <RecoveryPage /> },
      { path: '/log-in', element: <p>Log-in screen</p> },
    ],
    path,
  );
  return { ...view, store };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

async function byEmail(email: string) {
  const user = userEvent.setup();
  const field = screen.getByLabelText('Email');
  await user.clear(field);
  if (email) await user.type(field, email);
  await user.click(screen.getByRole('button', { name: 'Send Username' }));
  return user;
}

async function byPhone(country: string, digits: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('radio', { name: 'By Phone' }));
  await user.selectOptions(screen.getByLabelText('Country code'), country);
  const field = screen.getByLabelText('Phone number');
  await user.clear(field);
  if (digits) await user.type(field, digits);
  await user.click(screen.getByRole('button', { name: 'Send Username' }));
  return user;
}

describe('forgot username', () => {
  it('goes to log in for an unknown recovery type', async () => {
    serve({});
    open('/recovery/pin');
    expect(await screen.findByText('Log-in screen')).toBeInTheDocument();
  });

  it('offers e-mail first, then phone', () => {
    serve({});
    open();
    expect(screen.getByRole('radio', { name: 'By E-mail' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'By Phone' })).not.toBeChecked();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.queryByLabelText('Phone number')).not.toBeInTheDocument();
  });

  it('checks the e-mail before sending anything (spec §5 Email)', async () => {
    const calls = serve({});
    open();
    await byEmail('');
    expect(errorOf('Email')).toBe('This field is required');
    await byEmail('ann@');
    expect(errorOf('Email')).toBe('Please enter a valid email address');
    expect(calls).toEqual([]);
  });

  it('sends the username by e-mail, says where it went and leads to log in', async () => {
    const calls = serve({ 'POST accounts/username-by-email/verify/': { sent_to: 'a***@example.com' } });
    const { router } = open();
    const user = await byEmail('ann@example.com');
    expect(await screen.findByText('We sent your username to a***@example.com.')).toBeInTheDocument();
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', 'accounts/username-by-email/verify/', { email: 'ann@example.com' }],
    ]);
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByText('Log-in screen');
    expect(router.state.location.pathname).toBe('/log-in');
  });

  it('puts an unknown e-mail under the field', async () => {
    serve({
      'POST accounts/username-by-email/verify/': answer(400, {
        errors: [{ message: 'No account found with this email address.', code: 'not_found', field: 'email' }],
      }),
    });
    const { store } = open();
    await byEmail('nobody@example.com');
    await waitFor(() => expect(errorOf('Email')).toBe('No account found with this email address.'));
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('checks the phone number before sending anything (spec §5 Phone number)', async () => {
    const calls = serve({});
    open();
    await byPhone('+1', '12345678');
    expect(await screen.findByText('Minimum 9 digits')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('sends the username by SMS to the typed number', async () => {
    const calls = serve({ 'POST accounts/username-by-phone/verify/': { sent_to: '+44 *******100' } });
    open();
    await byPhone('+44', '7700900100');
    expect(await screen.findByText('We sent your username to +44 *******100.')).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([{ phone_number: { country_code: '+44', national_number: '7700900100' } }]);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('puts an unknown phone number under the field', async () => {
    serve({
      'POST accounts/username-by-phone/verify/': answer(400, {
        errors: [{ message: 'No account found with this phone number.', code: 'not_found', field: 'phone_number' }],
      }),
    });
    open();
    await byPhone('+1', '5551234567');
    expect(await screen.findByText('No account found with this phone number.')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows any other error in the snackbar', async () => {
    serve({
      'POST accounts/username-by-email/verify/': answer(429, {
        errors: [{ message: 'Too many requests. Please try again later.', code: 'rate_limited' }],
      }),
    });
    const { store } = open();
    await byEmail('ann@example.com');
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'Too many requests. Please try again later.',
      }),
    );
    expect(errorOf('Email')).toBeUndefined();
  });

  it('leaves a 5xx to the generic message', async () => {
    serve({
      'POST accounts/username-by-email/verify/': answer(503, { errors: [{ message: 'upstream', code: 'unavailable', field: 'email' }] }),
    });
    const { store } = open();
    await byEmail('ann@example.com');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SERVER_ERROR_MESSAGE }));
    expect(errorOf('Email')).toBeUndefined();
  });
});
