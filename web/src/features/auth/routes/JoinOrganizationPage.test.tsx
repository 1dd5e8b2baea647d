// Joining an organization with an invite code: the invite's organization and role; invited by
// e-mail the e-mail is fixed and no code is asked; invited by SMS the phone is fixed and the
// e-mail is confirmed with the sign-up code first; unknown and expired codes show the server's
// message with the way to the start screen; rule messages and server errors.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { JoinOrganizationPage } from './JoinOrganizationPage';

afterEach(() => vi.unstubAllGlobals());

const EMAIL_INVITE = {
  organization_name: 'Acme Rentals',
  role: 'member',
  channel: 'email',
  email: 'bob@example.com',
  phone_number: null,
  expires_at: '2026-11-28T12:00:00Z',
};

const SMS_INVITE = {
  organization_name: 'Acme Rentals',
  role: 'admin',
  channel: 'sms',
  email: null,
  phone_number: { country_code: '+1', national_number: '5551234567' },
  expires_at: '2026-11-28T12:00:00Z',
};

const TOKENS = { access: 'joined-access', refresh: 'joined-refresh' };

function open(code = 'ABCD2345') {
  const store = makeTestStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/join-organization/:code', element: <JoinOrganizationPage /> },
      { path: '/', element: <p>Start screen</p> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
    ],
    `/join-organization/${code}`,
  );
  return { ...view, store };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

interface Details {
  username?: string;
  email?: string;
  phone?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
}

async function fill(details: Details) {
  const user = userEvent.setup();
  const fields: [string, string | undefined][] = [
    ['Username', details.username],
    ['Email', details.email],
    ['Password', details.password],
    ['First name (optional)', details.firstName],
    ['Last name (optional)', details.lastName],
  ];
  for (const [label, value] of fields) {
    if (value === undefined) continue;
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value.length > 40) {
      await user.click(field);
      await user.paste(value);
    } else if (value) {
      await user.type(field, value);
    }
  }
  if (details.phone !== undefined) {
    await user.type(screen.getByLabelText('Phone number'), details.phone);
    await user.tab();
  }
  await user.click(screen.getByRole('button', { name: 'Join' }));
}

const routesOf = (calls: ApiCall[]) => calls.map((c) => `${c.method} ${c.path}`);
const bodyOf = (calls: ApiCall[], route: string) => calls.find((c) => `${c.method} ${c.path}` === route)?.body;

describe('join an organization invited by e-mail', () => {
  it('shows the organization and the role, and fixes the invited e-mail', async () => {
    serve({ 'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme Rentals' })).toBeInTheDocument();
    expect(screen.getByTestId('invite-role')).toHaveTextContent('Member');
    expect(screen.getByLabelText('Email')).toHaveValue('bob@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Phone number')).not.toHaveAttribute('readonly');
    expect(screen.getByLabelText('Country code')).toBeInTheDocument();
  });

  it('joins without a code and lands on home with the new session', async () => {
    const calls = serve({
      'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE,
      'POST accounts/organization/join/': answer(201, TOKENS),
    });
    const { store, router } = open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'bob', phone: '4155550111', password: 'Secret12#', firstName: 'Bob', lastName: 'Stone' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/home'));
    expect(routesOf(calls)).toEqual(['GET accounts/organization/invites/ABCD2345/', 'POST accounts/organization/join/']);
    expect(bodyOf(calls, 'POST accounts/organization/join/')).toEqual({
      code: 'ABCD2345',
      username: 'bob',
      email: 'bob@example.com',
      phone_number: { country_code: '+1', national_number: '4155550111' },
      password: 'Secret12#',
      first_name: 'Bob',
      last_name: 'Stone',
    });
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'joined-access', refreshToken: 'joined-refresh' });
  }, 20000);

  it('leaves out first and last names that are not given', async () => {
    const calls = serve({
      'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE,
      'POST accounts/organization/join/': answer(201, TOKENS),
    });
    const { router } = open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'bob', phone: '4155550111', password: 'Secret12#' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/home'));
    expect(bodyOf(calls, 'POST accounts/organization/join/')).not.toHaveProperty('first_name');
    expect(bodyOf(calls, 'POST accounts/organization/join/')).not.toHaveProperty('last_name');
  }, 20000);

  it('shows the rule messages and sends nothing', async () => {
    const calls = serve({ 'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE });
    open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: '', password: '' });
    expect(errorOf('Username')).toBe('This field is required');
    expect(errorOf('Password')).toBe('This field is required');
    expect(screen.getByText('This field is required', { selector: '.phone .field__error' })).toBeInTheDocument();
    await fill({ username: 'b', password: 'secret12#', firstName: 'B', lastName: 'S'.repeat(151) });
    expect(errorOf('Username')).toBe('Minimum 2 characters');
    expect(errorOf('Password')).toBe('Wrong Password. Please try again');
    expect(errorOf('First name (optional)')).toBe('Minimum 2 characters');
    expect(errorOf('Last name (optional)')).toBe('Maximum 150 characters');
    expect(routesOf(calls)).toEqual(['GET accounts/organization/invites/ABCD2345/']);
  }, 20000);

  it('puts the server field errors under their fields', async () => {
    serve({
      'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE,
      'POST accounts/organization/join/': answer(400, {
        errors: [
          { message: 'A user with that username already exists.', code: 'taken', field: 'username' },
          { message: 'A user with that phone number already exists.', code: 'taken', field: 'phone_number' },
        ],
      }),
    });
    const { store } = open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'bob', phone: '4155550111', password: 'Secret12#' });
    await waitFor(() => expect(errorOf('Username')).toBe('A user with that username already exists.'));
    expect(screen.getByText('A user with that phone number already exists.')).toBeInTheDocument();
    expect(store.getState().snackbar.isShown).toBe(false);
    expect(store.getState().loginInfo.accessToken).toBeNull();
  }, 20000);

  it('shows an error without a field in the snackbar (the invite expired meanwhile)', async () => {
    serve({
      'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE,
      'POST accounts/organization/join/': answer(400, {
        errors: [{ message: 'This invite has expired. Please ask for a new one.', code: 'invite_expired' }],
      }),
    });
    const { store } = open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'bob', phone: '4155550111', password: 'Secret12#' });
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: 'This invite has expired. Please ask for a new one.',
      }),
    );
  }, 20000);
});

describe('join an organization invited by SMS', () => {
  const smsRoutes = (join: unknown = answer(201, TOKENS)) => ({
    'GET accounts/organization/invites/ABCD2345/': SMS_INVITE,
    'POST accounts/email-username-phone-number/verify/': { email: true, username: true },
    'POST accounts/confirmation-code/send/': { expires_in_seconds: 600, sent_to: 'cy@example.com' },
    'POST accounts/confirmation-code/verify/': (call: ApiCall) =>
      (call.body as { code: string }).code === '123456'
        ? { verification_token: 'vt-9' }
        : answer(400, { errors: [{ message: 'The confirmation code is incorrect.', code: 'invalid', field: 'confirmation_code' }] }),
    'POST accounts/organization/join/': join,
  });

  async function confirmWith(code: string) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Confirmation code'), code);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
  }

  it('fixes the invited phone and leaves the e-mail to type', async () => {
    serve(smsRoutes());
    open();
    expect(await screen.findByRole('heading', { name: 'Join Acme Rentals' })).toBeInTheDocument();
    expect(screen.getByTestId('invite-role')).toHaveTextContent('Admin');
    expect(screen.getByLabelText('Phone number')).toHaveValue('+1 5551234567');
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('readonly');
    expect(screen.queryByLabelText('Country code')).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('readonly');
  });

  it('confirms the e-mail with the sign-up code, then joins with the verification token', async () => {
    const calls = serve(smsRoutes());
    const { store, router } = open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'cy', email: 'cy@example.com', password: 'Secret12#' });
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail' })).toBeInTheDocument();
    expect(routesOf(calls)).not.toContain('POST accounts/organization/join/');
    await confirmWith('123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/home'));
    expect(routesOf(calls)).toEqual([
      'GET accounts/organization/invites/ABCD2345/',
      'POST accounts/email-username-phone-number/verify/',
      'POST accounts/confirmation-code/send/',
      'POST accounts/confirmation-code/verify/',
      'POST accounts/organization/join/',
    ]);
    expect(bodyOf(calls, 'POST accounts/email-username-phone-number/verify/')).toEqual({ email: 'cy@example.com', username: 'cy' });
    expect(bodyOf(calls, 'POST accounts/confirmation-code/send/')).toEqual({ email: 'cy@example.com', purpose: 'sign_up' });
    expect(bodyOf(calls, 'POST accounts/confirmation-code/verify/')).toEqual({
      email: 'cy@example.com',
      code: '123456',
      purpose: 'sign_up',
    });
    expect(bodyOf(calls, 'POST accounts/organization/join/')).toEqual({
      code: 'ABCD2345',
      username: 'cy',
      email: 'cy@example.com',
      phone_number: { country_code: '+1', national_number: '5551234567' },
      password: 'Secret12#',
      verification_token: 'vt-9',
    });
    expect(store.getState().loginInfo.accessToken).toBe('joined-access');
  }, 20000);

  it('an incorrect code does not join', async () => {
    const calls = serve(smsRoutes());
    open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'cy', email: 'cy@example.com', password: 'Secret12#' });
    await confirmWith('111111');
    expect(await screen.findByText('The confirmation code is incorrect.')).toBeInTheDocument();
    expect(routesOf(calls)).not.toContain('POST accounts/organization/join/');
  }, 20000);

  it('a taken username or e-mail stays on the form and no code is sent', async () => {
    const calls = serve({ ...smsRoutes(), 'POST accounts/email-username-phone-number/verify/': { email: false, username: false } });
    open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'cy', email: 'cy@example.com', password: 'Secret12#' });
    await waitFor(() => expect(errorOf('Email')).toBe('A user with that email already exists.'));
    expect(errorOf('Username')).toBe('A user with that username already exists.');
    expect(routesOf(calls)).not.toContain('POST accounts/confirmation-code/send/');
  }, 20000);

  it('a refused join returns to the form with the error under its field', async () => {
    serve(smsRoutes(answer(400, { errors: [{ message: 'A user with that email already exists.', code: 'taken', field: 'email' }] })));
    open();
    await screen.findByRole('heading', { name: 'Join Acme Rentals' });
    await fill({ username: 'cy', email: 'cy@example.com', password: 'Secret12#' });
    await confirmWith('123456');
    await waitFor(() => expect(errorOf('Email')).toBe('A user with that email already exists.'));
    expect(screen.getByRole('heading', { level: 1, name: 'Join Acme Rentals' })).toBeVisible();
    expect(screen.getByLabelText('Username')).toHaveValue('cy');
  }, 20000);
});

describe('an invite code that cannot be used', () => {
  it('an expired or used code shows the server message and the way to the start screen', async () => {
    const calls = serve({
      'GET accounts/organization/invites/ABCD2345/': answer(400, {
        errors: [{ message: 'This invite has expired. Please ask for a new one.', code: 'invite_expired' }],
      }),
    });
    const { router } = open();
    expect(await screen.findByText('This invite has expired. Please ask for a new one.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    expect(screen.queryByLabelText('Username')).toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Go to the Start Page' }));
    expect(router.state.location.pathname).toBe('/');
    expect(routesOf(calls)).toEqual(['GET accounts/organization/invites/ABCD2345/']);
  });

  it('an unknown code shows the server message', async () => {
    serve({
      'GET accounts/organization/invites/ZZZZ9999/': answer(404, {
        errors: [{ message: 'This invite code is not valid.', code: 'not_found' }],
      }),
    });
    open('ZZZZ9999');
    expect(await screen.findByText('This invite code is not valid.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the Start Page' })).toHaveAttribute('href', '/');
  });

  it('reads a code typed in lower case as the same code', async () => {
    const calls = serve({ 'GET accounts/organization/invites/ABCD2345/': EMAIL_INVITE });
    open('abcd2345');
    expect(await screen.findByRole('heading', { name: 'Join Acme Rentals' })).toBeInTheDocument();
    expect(routesOf(calls)).toEqual(['GET accounts/organization/invites/ABCD2345/']);
  });
});
