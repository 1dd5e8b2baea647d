// Sign up as an individual and as an organization: the organization name's rule messages, the
// calls in order (availability, code, verify, create) with and without organization_name, taken
// values and server field errors under their fields, the code step's errors and Back, the links
// between the two kinds, a 5xx left to the generic message, and the referral link.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { INVALID_REFERRAL } from '../../referrals';
import { NEW_CODE_SENT } from '../components/EmailCodeStep';
import { NETWORK_LOST } from '../../../components/NetworkBanner';
import { SignUpPage } from './SignUpPage';

afterEach(() => vi.unstubAllGlobals());

function open(path: '/sign-up' | '/sign-up-organization') {
  const store = makeTestStore({ signedIn: false });
  const view = renderAt(
    store,
    [
      { path: '/sign-up', element: <SignUpPage /> },
      { path: '/sign-up-organization', element: <SignUpPage key="organization" kind="organization" /> },
      { path: '/dashboard/home', element: <p>Home screen</p> },
      { path: '/walkthrough', element: <p>Walkthrough screen</p> },
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

interface Details {
  organizationName?: string;
  username?: string;
  email?: string;
  phone?: string;
  password?: string;
}

const ANN: Required<Omit<Details, 'organizationName'>> = {
  username: 'ann',
  email: 'ann@example.com',
  phone: '4155550100',
  password: 'Secret12#',
};

async function fillDetails(details: Details) {
  const user = userEvent.setup();
  const fields: [string, string | undefined][] = [
    ['Organization name', details.organizationName],
    ['Username', details.username],
    ['Email', details.email],
    ['Password', details.password],
  ];
  for (const [label, value] of fields) {
    if (value === undefined) continue;
    const field = screen.getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
  if (details.phone !== undefined) {
    await user.type(screen.getByLabelText('Phone number'), details.phone);
    await user.tab();
  }
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

async function enterCode(code: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Confirmation code'), code);
  await user.click(screen.getByRole('button', { name: 'Confirm' }));
}

const FREE = { email: true, username: true, phone_number: true };
const signUpRoutes = (create: unknown = { access: 'new-access', refresh: 'new-refresh' }) => ({
  'POST accounts/email-username-phone-number/verify/': FREE,
  'POST accounts/confirmation-code/send/': { expires_in_seconds: 600, sent_to: 'ann@example.com' },
  'POST accounts/confirmation-code/verify/': (call: ApiCall) =>
    (call.body as { code: string }).code === '123456'
      ? { verification_token: 'vt-1' }
      : answer(400, { errors: [{ message: 'The confirmation code is incorrect.', code: 'invalid', field: 'confirmation_code' }] }),
  'POST accounts/create/': create,
});

const bodyOf = (calls: ApiCall[], route: string) => calls.find((c) => `${c.method} ${c.path}` === route)?.body;

describe('sign up as an individual', () => {
  it('checks availability, sends the code, verifies it and creates the account without an organization', async () => {
    const calls = serve(signUpRoutes());
    const { store, router } = open('/sign-up');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Organization name')).toBeNull();
    await fillDetails(ANN);
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail' })).toBeInTheDocument();
    await enterCode('123456');
    // A new user is led through the walkthrough first, as a step of the onboarding.
    await waitFor(() => expect(router.state.location.pathname).toBe('/walkthrough'));
    expect(router.state.location.state).toEqual({ onboarding: true });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST accounts/email-username-phone-number/verify/',
      'POST accounts/confirmation-code/send/',
      'POST accounts/confirmation-code/verify/',
      'POST accounts/create/',
    ]);
    expect(bodyOf(calls, 'POST accounts/confirmation-code/send/')).toEqual({ email: 'ann@example.com', purpose: 'sign_up' });
    expect(bodyOf(calls, 'POST accounts/create/')).toEqual({
      username: 'ann',
      email: 'ann@example.com',
      password: 'Secret12#',
      phone_number: { country_code: '+1', national_number: '4155550100' },
      verification_token: 'vt-1',
    });
    expect(store.getState().loginInfo).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
  }, 20000);

  it('links to the organization sign-up', async () => {
    serve({});
    const { router } = open('/sign-up');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign Up as an Organization' }));
    expect(router.state.location.pathname).toBe('/sign-up-organization');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign Up as an Organization' })).toBeInTheDocument();
    expect(screen.getByLabelText('Organization name')).toHaveValue('');
  });

  it('puts taken values under their fields and sends no code', async () => {
    const calls = serve({ 'POST accounts/email-username-phone-number/verify/': { email: false, username: false, phone_number: false } });
    open('/sign-up');
    await fillDetails(ANN);
    await waitFor(() => expect(errorOf('Email')).toBe('A user with that email already exists.'));
    expect(errorOf('Username')).toBe('A user with that username already exists.');
    expect(screen.getByText('A user with that phone number already exists.')).toBeInTheDocument();
    expect(calls.map((c) => c.path)).toEqual(['accounts/email-username-phone-number/verify/']);
  }, 20000);
});

describe('sign up as an organization', () => {
  it('shows the organization name rule messages (spec §5 Short text) and sends nothing', async () => {
    const calls = serve({});
    open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: '' });
    expect(errorOf('Organization name')).toBe('This field is required');
    await fillDetails({ organizationName: 'Ab' });
    expect(errorOf('Organization name')).toBe('Minimum 3 characters');
    await fillDetails({ organizationName: 'a'.repeat(31) });
    expect(errorOf('Organization name')).toBe('Maximum 30 characters');
    expect(calls).toEqual([]);
  }, 20000);

  it('creates the account with organization_name after the same e-mail code step', async () => {
    const calls = serve(signUpRoutes());
    const { store, router } = open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: ' Acme Rentals ' });
    await enterCode('123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/walkthrough'));
    expect(bodyOf(calls, 'POST accounts/confirmation-code/verify/')).toEqual({
      email: 'ann@example.com',
      code: '123456',
      purpose: 'sign_up',
    });
    expect(bodyOf(calls, 'POST accounts/create/')).toEqual({
      username: 'ann',
      email: 'ann@example.com',
      password: 'Secret12#',
      phone_number: { country_code: '+1', national_number: '4155550100' },
      verification_token: 'vt-1',
      organization_name: 'Acme Rentals',
    });
    expect(store.getState().loginInfo.accessToken).toBe('new-access');
  }, 20000);

  it('an incorrect code stays on the code step and creates nothing', async () => {
    const calls = serve(signUpRoutes());
    open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: 'Acme Rentals' });
    await enterCode('654321');
    expect(await screen.findByText('The confirmation code is incorrect.')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.path === 'accounts/create/')).toBe(false);
  }, 20000);

  it('a lost connection while confirming says so and leaves the right code unmarked', async () => {
    serve({
      ...signUpRoutes(),
      'POST accounts/confirmation-code/verify/': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { store } = open('/sign-up');
    await fillDetails(ANN);
    await enterCode('123456');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: NETWORK_LOST, type: 'error' }));
    expect(screen.getByLabelText('Confirmation code')).not.toHaveAttribute('aria-invalid', 'true');
  }, 20000);

  it('returns to the details with the server field error under Organization name', async () => {
    serve(
      signUpRoutes(
        answer(400, { errors: [{ message: 'An organization with that name already exists.', code: 'taken', field: 'organization_name' }] }),
      ),
    );
    const { store } = open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: 'Acme Rentals' });
    await enterCode('123456');
    await waitFor(() => expect(errorOf('Organization name')).toBe('An organization with that name already exists.'));
    expect(screen.getByRole('heading', { level: 1, name: 'Sign Up as an Organization' })).toBeVisible();
    expect(screen.getByLabelText('Organization name')).toHaveValue('Acme Rentals');
    expect(store.getState().snackbar.isShown).toBe(false);
    expect(store.getState().loginInfo.accessToken).toBeNull();
  }, 20000);

  it('Back keeps every typed value, the phone number too', async () => {
    const calls = serve(signUpRoutes());
    open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: 'Acme Rentals' });
    await screen.findByLabelText('Confirmation code');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Organization name')).toHaveValue('Acme Rentals');
    expect(screen.getByLabelText('Phone number')).toHaveValue(4155550100);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByLabelText('Confirmation code');
    const checks = calls.filter((c) => c.path === 'accounts/email-username-phone-number/verify/');
    expect(checks[1]?.body).toEqual(checks[0]?.body);
  }, 20000);

  it('Send a new code sends it again and says so', async () => {
    const calls = serve(signUpRoutes());
    const { store } = open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: 'Acme Rentals' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: NEW_CODE_SENT, type: 'info' }));
    expect(calls.filter((c) => c.path === 'accounts/confirmation-code/send/')).toHaveLength(2);
  }, 20000);

  it('leaves a 5xx to the generic message', async () => {
    serve(signUpRoutes(answer(503, { errors: [{ message: 'upstream down', code: 'unavailable' }] })));
    const { store } = open('/sign-up-organization');
    await fillDetails({ ...ANN, organizationName: 'Acme Rentals' });
    await enterCode('123456');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: SERVER_ERROR_MESSAGE, type: 'error' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Sign Up as an Organization' })).toBeVisible();
  }, 20000);

  it('links back to the individual sign-up', async () => {
    serve({});
    const { router } = open('/sign-up-organization');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign Up as an Individual' }));
    expect(router.state.location.pathname).toBe('/sign-up');
    expect(screen.queryByLabelText('Organization name')).toBeNull();
  });
});

// Spec §2: sign up with query referred=true (a referral link) shows who invited the visitor, is
// shown even to a signed-in user, who is then logged out, and credits the friend.
describe('sign up through a referral link', () => {
  const LINK = '/sign-up?referred=true&code=AB2CD3EF';
  const checkRoute = (valid: boolean) => ({
    'POST shareable-codes/check/': (call: ApiCall) =>
      (call.body as { code: string }).code === 'AB2CD3EF' && valid ? { valid: true, first_name: 'Ann' } : { valid: false, first_name: '' },
  });

  it('shows who invited the visitor and sends the code with the new account', async () => {
    const calls = serve({ ...signUpRoutes(), ...checkRoute(true) });
    const { router } = open(LINK as '/sign-up');
    expect(await screen.findByText('Invited by Ann')).toBeInTheDocument();
    expect(bodyOf(calls, 'POST shareable-codes/check/')).toEqual({ code: 'AB2CD3EF' });
    await fillDetails({ ...ANN, username: 'bob', email: 'bob@example.com' });
    await enterCode('123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/walkthrough'));
    expect(bodyOf(calls, 'POST accounts/create/')).toMatchObject({ username: 'bob', referral_code: 'AB2CD3EF' });
  }, 20000);

  it('says an unknown code is not valid and signs up without it', async () => {
    const calls = serve({ ...signUpRoutes(), ...checkRoute(false) });
    const { router } = open(LINK as '/sign-up');
    expect(await screen.findByText(INVALID_REFERRAL)).toBeInTheDocument();
    expect(screen.queryByText(/Invited by/)).toBeNull();
    await fillDetails(ANN);
    await enterCode('123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/walkthrough'));
    expect(bodyOf(calls, 'POST accounts/create/')).not.toHaveProperty('referral_code');
  }, 20000);

  it('says a friend invited the visitor when the inviter gave no first name', async () => {
    serve({ 'POST shareable-codes/check/': { valid: true, first_name: '' } });
    open(LINK as '/sign-up');
    expect(await screen.findByText('Invited by a friend')).toBeInTheDocument();
  });

  it('checks nothing without referred=true', async () => {
    const calls = serve(checkRoute(true));
    open('/sign-up?code=AB2CD3EF' as '/sign-up');
    await screen.findByRole('heading', { level: 1, name: 'Sign Up' });
    expect(calls.map((c) => c.path)).not.toContain('shareable-codes/check/');
  });

  it('logs a signed-in user out and shows the sign-up with the invitation', async () => {
    serve({ ...checkRoute(true), 'POST accounts/logout/': {} });
    const store = makeTestStore({ signedIn: true });
    const { router } = renderAt(
      store,
      [
        { path: '/sign-up', element: <SignUpPage /> },
        { path: '/dashboard/home', element: <p>Home screen</p> },
      ],
      LINK,
      { guarded: true },
    );
    expect(await screen.findByText('Invited by Ann')).toBeInTheDocument();
    await waitFor(() => expect(store.getState().loginInfo.accessToken).toBeFalsy());
    expect(router.state.location.pathname).toBe('/sign-up');
    expect(screen.queryByText('Home screen')).toBeNull();
  });
});
