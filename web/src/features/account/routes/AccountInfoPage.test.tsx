// /account-info: the profile as shown; names edited directly; username, e-mail and phone behind the
// current password whose token is reused for 10 minutes and asked again when refused; the e-mail
// and phone code step; the optimistic communication method with its undo and refetch.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, type ApiCall, apiProfile, holdCalls, renderAt, serve } from '../../../testing';
import { makeAccountStore } from '../testing/helpers';
import { AccountInfoPage } from './AccountInfoPage';

let stopZone = () => {};
afterEach(() => {
  stopZone();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

let profile: ReturnType<typeof apiProfile>;
beforeEach(() => {
  profile = apiProfile();
});

function render(zone = 'UTC') {
  const { store, stop } = makeAccountStore(zone);
  stopZone = stop;
  renderAt(store, [{ path: '/account-info', element: <AccountInfoPage /> }], '/account-info');
  return store;
}

/** The page with the profile loaded. */
async function open(zone = 'UTC') {
  const store = render(zone);
  await screen.findByTestId('account-username');
  return store;
}

const TOKEN = answer(200, { password_token: 'pt1', expires_in_seconds: 600 });
const WRONG_PASSWORD = answer(400, { errors: [{ message: 'Wrong Password. Please try again', code: 'invalid', field: 'password' }] });

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

const sheet = (name: string) => screen.getByRole('dialog', { name });
const notMe = (calls: ApiCall[]) => calls.filter((c) => !(c.method === 'GET' && c.path === 'accounts/me/'));
const meCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === 'accounts/me/').length;

async function typeInto(label: string, value: string) {
  const user = userEvent.setup();
  const field = screen.getByLabelText(label);
  await user.clear(field);
  if (value) await user.type(field, value);
}

async function click(name: string) {
  await userEvent.setup().click(screen.getByRole('button', { name }));
}

async function confirmPassword(password = 'Secret12#') {
  await typeInto('Current password', password);
  await click('Continue');
}

describe('account info', () => {
  it('shows the profile: names, username, e-mail, phone, address, account type and member since', async () => {
    serve({ 'GET accounts/me/': () => profile });
    await open();
    expect(await screen.findByTestId('account-username')).toHaveTextContent('ann');
    expect(screen.getByTestId('account-first-name')).toHaveTextContent('Ann');
    expect(screen.getByTestId('account-last-name')).toHaveTextContent('Lee');
    expect(screen.getByTestId('account-email')).toHaveTextContent('ann@example.com');
    expect(screen.getByTestId('account-phone')).toHaveTextContent('+1 5551234567');
    expect(screen.getByTestId('account-address')).toHaveTextContent('5, Unter den Linden, Berlin, Germany, 10117');
    expect(screen.getByTestId('account-type')).toHaveTextContent('Individual');
    // In the chosen zone (UTC): 23:30 on Jan 5.
    expect(screen.getByTestId('account-member-since')).toHaveTextContent('Jan 5, 2026');
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    const links = within(screen.getByRole('navigation', { name: 'Account' }))
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Change Address', '/change-address'],
      ['Change Password', '/change-password'],
    ]);
  });

  it('shows the member-since date in the time zone chosen on Date and Time', async () => {
    serve({ 'GET accounts/me/': () => profile });
    await open('Asia/Tokyo');
    // 23:30 UTC on Jan 5 is already Jan 6 in Tokyo.
    expect(screen.getByTestId('account-member-since')).toHaveTextContent('Jan 6, 2026');
  });

  it('names an organization account with its organization and role, and an empty address as not set', async () => {
    profile = apiProfile({
      account_type: 'organization',
      organization: { id: 'o1', name: 'Acme', role: 'owner' },
      address: { country: '', apartment_number: '', province: '', street: '', house: '', city: '', zip_code: '' },
    });
    serve({ 'GET accounts/me/': () => profile });
    await open();
    expect(await screen.findByTestId('account-type')).toHaveTextContent('Organization · Acme (owner)');
    expect(screen.getByTestId('account-address')).toHaveTextContent('Not set');
  });

  it('offers to try again when the profile cannot be loaded', async () => {
    let fail = true;
    serve({ 'GET accounts/me/': () => (fail ? answer(404, { errors: [{ message: 'Not found.' }] }) : profile) });
    render();
    await screen.findByText('Your details could not be loaded.');
    fail = false;
    await click('Try again');
    expect(await screen.findByTestId('account-username')).toHaveTextContent('ann');
  });
});

describe('names (spec §5 Name)', () => {
  it('shows the rule messages, then saves both names and refreshes the profile', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'PATCH accounts/first-last-names/update/': (call: ApiCall) => {
        const body = call.body as { first_name: string; last_name: string };
        profile = { ...profile, first_name: body.first_name, last_name: body.last_name };
        return {};
      },
    });
    const store = await open();
    await click('Edit name');
    expect(sheet('Change Name')).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ann');
    await typeInto('First name', '');
    await typeInto('Last name', 'L');
    await click('Save');
    expect(errorOf('First name')).toBe('This field is required');
    expect(errorOf('Last name')).toBe('Minimum 2 characters');
    await typeInto('Last name', 'x'.repeat(151));
    await click('Save');
    expect(errorOf('Last name')).toBe('Maximum 150 characters');
    expect(notMe(calls)).toEqual([]);

    await typeInto('First name', 'Anna');
    await typeInto('Last name', 'Lind');
    await click('Save');
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'success', message: 'Your name was changed.' }),
    );
    expect(notMe(calls)).toEqual([
      { method: 'PATCH', path: 'accounts/first-last-names/update/', body: { first_name: 'Anna', last_name: 'Lind' }, idempotencyKey: null },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('account-first-name')).toHaveTextContent('Anna'));
    expect(meCalls(calls)).toBe(2);
  });

  it("puts the server's field error under its field", async () => {
    serve({
      'GET accounts/me/': () => profile,
      'PATCH accounts/first-last-names/update/': answer(400, { errors: [{ message: 'Maximum 150 characters', field: 'last_name' }] }),
    });
    const store = await open();
    await click('Edit name');
    await click('Save');
    await waitFor(() => expect(errorOf('Last name')).toBe('Maximum 150 characters'));
    expect(store.getState().snackbar.isShown).toBe(false);
  });
});

describe('username behind the current password', () => {
  it('asks the password (required only), shows a wrong one under the field, then checks and saves the username', async () => {
    let verifications = 0;
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': (call: ApiCall) => {
        verifications += 1;
        return (call.body as { password: string }).password === 'Secret12#' ? TOKEN : WRONG_PASSWORD;
      },
      'PATCH accounts/username/change/': (call: ApiCall) => {
        const body = call.body as { new_username: string };
        if (body.new_username === 'taken') {
          return answer(400, { errors: [{ message: 'A user with that username already exists.', field: 'new_username' }] });
        }
        profile = { ...profile, username: body.new_username };
        return {};
      },
    });
    const store = await open();
    await click('Edit username');
    expect(sheet('Change Username')).toBeInTheDocument();
    expect(screen.queryByLabelText('New username')).not.toBeInTheDocument();
    await click('Continue');
    expect(errorOf('Current password')).toBe('This field is required');
    expect(verifications).toBe(0);
    await confirmPassword('nope');
    await waitFor(() => expect(errorOf('Current password')).toBe('Wrong Password. Please try again'));
    await confirmPassword();

    await screen.findByLabelText('New username');
    await click('Save');
    expect(errorOf('New username')).toBe('This field is required');
    await typeInto('New username', 'a');
    await click('Save');
    expect(errorOf('New username')).toBe('Minimum 2 characters');
    await typeInto('New username', 'ann lee');
    await click('Save');
    expect(errorOf('New username')).toBe('Please enter a valid username');
    await typeInto('New username', 'taken');
    await click('Save');
    await waitFor(() => expect(errorOf('New username')).toBe('A user with that username already exists.'));

    await typeInto('New username', 'ann.lee');
    await click('Save');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'success', message: 'Your username was changed.' }));
    expect(notMe(calls).map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', 'accounts/password/verify/', { password: 'nope' }],
      ['POST', 'accounts/password/verify/', { password: 'Secret12#' }],
      ['PATCH', 'accounts/username/change/', { new_username: 'taken', password_token: 'pt1' }],
      ['PATCH', 'accounts/username/change/', { new_username: 'ann.lee', password_token: 'pt1' }],
    ]);
    await waitFor(() => expect(screen.getByTestId('account-username')).toHaveTextContent('ann.lee'));
  });

  it('reuses the password token for its 10 minutes, then asks again', async () => {
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    let verifications = 0;
    serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': () => {
        verifications += 1;
        return answer(200, { password_token: `pt${verifications}`, expires_in_seconds: 600 });
      },
      'PATCH accounts/username/change/': {},
    });
    await open();
    await click('Edit username');
    await confirmPassword();
    await screen.findByLabelText('New username');
    await click('Close');

    // A minute later, another sensitive change: no password asked.
    offset = 60_000;
    await click('Edit email');
    expect(screen.getByLabelText('New email')).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await click('Close');
    expect(verifications).toBe(1);

    // Ten minutes after it was given, the token is no longer used.
    offset = 600_000;
    await click('Edit username');
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
    await confirmPassword();
    await screen.findByLabelText('New username');
    expect(verifications).toBe(2);
  });

  it('asks for the password again when the server refuses the token, and goes on with the new one', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': (() => {
        let n = 0;
        return () => {
          n += 1;
          return answer(200, { password_token: `pt${n}`, expires_in_seconds: 600 });
        };
      })(),
      'PATCH accounts/username/change/': (call: ApiCall) =>
        (call.body as { password_token: string }).password_token === 'pt1'
          ? answer(400, { errors: [{ message: 'Please confirm your password again.', field: 'password_token' }] })
          : {},
    });
    const store = await open();
    await click('Edit username');
    await confirmPassword();
    await typeInto('New username', 'ann2');
    await click('Save');
    expect(await screen.findByText('Please confirm your password again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    await confirmPassword();
    await typeInto('New username', 'ann2');
    await click('Save');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'success', message: 'Your username was changed.' }));
    expect(
      notMe(calls)
        .filter((c) => c.method === 'PATCH')
        .map((c) => c.body),
    ).toEqual([
      { new_username: 'ann2', password_token: 'pt1' },
      { new_username: 'ann2', password_token: 'pt2' },
    ]);
  });
});

describe('e-mail change with a code sent to the new address', () => {
  it('checks the address, sends the code, shows a wrong code, resends, then confirms and shows the new address', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': TOKEN,
      'PATCH accounts/email/change/': (call: ApiCall) => {
        const body = call.body as { new_email: string; code?: string };
        if (!body.code) return answer(202, { expires_in_seconds: 600, sent_to: 'n***@example.com' });
        if (body.code !== '654321') {
          return answer(400, { errors: [{ message: 'The confirmation code is incorrect.', field: 'confirmation_code' }] });
        }
        profile = { ...profile, email: body.new_email };
        return {};
      },
    });
    const store = await open();
    await click('Edit email');
    expect(sheet('Change Email')).toBeInTheDocument();
    await confirmPassword();
    await screen.findByLabelText('New email');
    await click('Send code');
    expect(errorOf('New email')).toBe('This field is required');
    await typeInto('New email', 'new@');
    await click('Send code');
    expect(errorOf('New email')).toBe('Please enter a valid email address');
    await typeInto('New email', 'new@example.com');
    await click('Send code');

    expect(await screen.findByText('n***@example.com')).toBeInTheDocument();
    const code = screen.getByLabelText('Confirmation code');
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await userEvent.type(code, '123456');
    expect(code).toHaveValue('123 456');
    await click('Confirm');
    expect(await screen.findByText('The confirmation code is incorrect.')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await click('Resend code');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'info', message: 'A new code was sent.' }));

    await userEvent.clear(code);
    expect(screen.queryByText('The confirmation code is incorrect.')).not.toBeInTheDocument();
    await userEvent.type(code, '654321');
    await click('Confirm');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'success', message: 'Your e-mail was changed.' }));
    expect(notMe(calls).map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', 'accounts/password/verify/', { password: 'Secret12#' }],
      ['PATCH', 'accounts/email/change/', { new_email: 'new@example.com', password_token: 'pt1' }],
      ['PATCH', 'accounts/email/change/', { new_email: 'new@example.com', password_token: 'pt1', code: '123456' }],
      ['PATCH', 'accounts/email/change/', { new_email: 'new@example.com', password_token: 'pt1' }],
      ['PATCH', 'accounts/email/change/', { new_email: 'new@example.com', password_token: 'pt1', code: '654321' }],
    ]);
    await waitFor(() => expect(screen.getByTestId('account-email')).toHaveTextContent('new@example.com'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('goes back to the address with the server message when the address is refused at the code step', async () => {
    serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': TOKEN,
      'PATCH accounts/email/change/': (call: ApiCall) =>
        (call.body as { code?: string }).code
          ? answer(400, { errors: [{ message: 'A user with that email already exists.', field: 'new_email' }] })
          : answer(202, { expires_in_seconds: 600, sent_to: 'new@example.com' }),
    });
    await open();
    await click('Edit email');
    await confirmPassword();
    await typeInto('New email', 'new@example.com');
    await click('Send code');
    await userEvent.type(await screen.findByLabelText('Confirmation code'), '123456');
    await click('Confirm');
    await waitFor(() => expect(errorOf('New email')).toBe('A user with that email already exists.'));
    expect(screen.getByLabelText('New email')).toHaveValue('new@example.com');
  });
});

describe('phone change with a code sent by SMS', () => {
  it('uses the shared phone input and its rules, then sends the number and confirms the code', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': TOKEN,
      'PATCH accounts/phone-number/change/': (call: ApiCall) =>
        (call.body as { code?: string }).code ? {} : answer(202, { expires_in_seconds: 600, sent_to: '+44 *******123' }),
    });
    const store = await open();
    await click('Edit phone number');
    expect(sheet('Change Phone Number')).toBeInTheDocument();
    await confirmPassword();
    const user = userEvent.setup();
    const country = await screen.findByLabelText('Country code');
    expect(country).toHaveValue('+1');
    const number = screen.getByLabelText('Phone number');
    await user.type(number, '77009001');
    await click('Send code');
    expect(await screen.findByText('Minimum 9 digits')).toBeInTheDocument();
    expect(notMe(calls).filter((c) => c.method === 'PATCH')).toEqual([]);

    await user.selectOptions(country, '+44');
    await user.type(number, '23');
    await click('Send code');
    await screen.findByText('+44 *******123');
    await userEvent.type(screen.getByLabelText('Confirmation code'), '111222');
    await click('Confirm');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'success', message: 'Your phone number was changed.' }));
    expect(
      notMe(calls)
        .filter((c) => c.method === 'PATCH')
        .map((c) => c.body),
    ).toEqual([
      { new_phone_number: { country_code: '+44', national_number: '7700900123' }, password_token: 'pt1' },
      { new_phone_number: { country_code: '+44', national_number: '7700900123' }, password_token: 'pt1', code: '111222' },
    ]);
  });

  it("shows the server's error about the number under the phone input", async () => {
    serve({
      'GET accounts/me/': () => profile,
      'POST accounts/password/verify/': TOKEN,
      'PATCH accounts/phone-number/change/': answer(400, {
        errors: [{ message: 'A user with that phone number already exists.', field: 'new_phone_number' }],
      }),
    });
    await open();
    await click('Edit phone number');
    await confirmPassword();
    await userEvent.type(await screen.findByLabelText('Phone number'), '5559876543');
    await click('Send code');
    expect(await screen.findByText('A user with that phone number already exists.')).toBeInTheDocument();
  });
});

describe('communication method (optimistic, spec §4 and §8)', () => {
  it('shows the new method while the call runs and keeps it when it succeeds', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/communication-method/change/': (call: ApiCall) => {
        profile = { ...profile, communication_method: (call.body as { communication_method: string }).communication_method };
        return {};
      },
    });
    const store = await open();
    const held = holdCalls((method, path) => method === 'POST' && path === 'accounts/communication-method/change/');
    await userEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    // Before the server has answered.
    await waitFor(() => expect(screen.getByRole('radio', { name: 'SMS' })).toBeChecked());
    expect(calls.filter((c) => c.path === 'accounts/communication-method/change/')).toEqual([]);
    held.release();
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'success', message: 'Codes will be sent by SMS.' }));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ communication_method: 'sms' }]);
    await waitFor(() => expect(meCalls(calls)).toBe(2));
    expect(screen.getByRole('radio', { name: 'SMS' })).toBeChecked();
  });

  it('undoes the change, fetches the profile again and shows the error when the call fails', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/communication-method/change/': answer(400, {
        errors: [{ message: 'Add a phone number first.', field: 'communication_method' }],
      }),
    });
    const store = await open();
    const held = holdCalls((method, path) => method === 'POST' && path === 'accounts/communication-method/change/');
    await userEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'SMS' })).toBeChecked());
    held.release();
    await waitFor(() => expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked());
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'Add a phone number first.' }));
    await waitFor(() => expect(meCalls(calls)).toBe(2));
  });

  it('undoes the change and refetches after a server failure too, leaving the message to the generic one', async () => {
    const calls = serve({
      'GET accounts/me/': () => profile,
      'POST accounts/communication-method/change/': answer(503, { errors: [{ message: 'down' }] }),
    });
    const store = await open();
    await userEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    await waitFor(() => expect(meCalls(calls)).toBe(2));
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'An error occurred. Please try again later.' });
  });
});
