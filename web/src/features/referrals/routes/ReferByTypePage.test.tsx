// Invite by e-mail and by SMS: the spec §5 rules, a body of only the non-empty fields, server
// field errors on their fields, the 429 in the snackbar, and the list after a sent invitation;
// any other type is an unknown path.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve, type Route } from '../../../testing';
import { apiInvitation, apiReferralInfo } from '../testing/helpers';
import { ReferByTypePage, sentMessage, TOO_MANY_TODAY } from './ReferByTypePage';

afterEach(() => vi.unstubAllGlobals());

const CREATE = 'POST shareable-codes/individual/create/';

function open(path: string, routes: Record<string, Route>) {
  const calls = serve({ 'GET shareable-codes/referral-info/': apiReferralInfo(), ...routes });
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/refer/:type', element: <ReferByTypePage /> },
      { path: '/referral-code', element: <p>Invitations screen</p> },
      { path: '/', element: <p>Start screen</p> },
    ],
    path,
  );
  return { ...view, calls, store };
}

const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

const created = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === 'shareable-codes/individual/create/').map((c) => c.body);

describe('invite by e-mail', () => {
  it('checks the address with the spec §5 messages before sending', async () => {
    const { calls } = open('/refer/email', {});
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(errorOf("Friend's email")).toBe('This field is required');
    await user.type(screen.getByLabelText("Friend's email"), 'friend@');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(errorOf("Friend's email")).toBe('Please enter a valid email address');
    expect(created(calls)).toEqual([]);
  });

  it('sends only the filled fields, announces it and opens the list', async () => {
    const { calls, store, router } = open('/refer/email', { [CREATE]: answer(201, apiInvitation()) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Friend's email"), 'friend@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/referral-code'));
    expect(created(calls)).toEqual([{ email: 'friend@example.com' }]);
    expect(store.getState().snackbar).toMatchObject({ isShown: true, message: sentMessage('friend@example.com') });
  });

  it('sends the name when one is given', async () => {
    const { calls } = open('/refer/email', { [CREATE]: answer(201, apiInvitation()) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Friend's name (optional)"), ' Ann ');
    await user.type(screen.getByLabelText("Friend's email"), 'friend@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(created(calls)).toEqual([{ email: 'friend@example.com', name: 'Ann' }]));
  });

  it("puts the server's field errors on their fields", async () => {
    const { router } = open('/refer/email', {
      [CREATE]: answer(400, {
        errors: [
          { message: 'You cannot invite yourself.', code: 'invalid', field: 'email' },
          { message: 'Name is too long.', code: 'invalid', field: 'name' },
        ],
      }),
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Friend's name (optional)"), 'Ann');
    await user.type(screen.getByLabelText("Friend's email"), 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(errorOf("Friend's email")).toBe('You cannot invite yourself.'));
    expect(errorOf("Friend's name (optional)")).toBe('Name is too long.');
    expect(router.state.location.pathname).toBe('/refer/email');
  });

  it("shows the server's message when today's invitations are used up", async () => {
    const { store } = open('/refer/email', { [CREATE]: answer(429, { errors: [{ message: 'Too many invitations today.' }] }) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Friend's email"), 'friend@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'Too many invitations today.' }));
  });

  it('falls back to its own words for a 429 without a message', async () => {
    const { store } = open('/refer/email', { [CREATE]: answer(429, {}) });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Friend's email"), 'friend@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: TOO_MANY_TODAY }));
  });
});

describe('invite by SMS', () => {
  it('checks the number with the spec §5 messages', async () => {
    const { calls } = open('/refer/sms', {});
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Phone number'), '12345');
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Minimum 9 digits')).toBeInTheDocument();
    expect(created(calls)).toEqual([]);
  });

  it('sends the country code and the number, with a server error on the phone field', async () => {
    let refuse = true;
    const { calls, router } = open('/refer/sms', {
      [CREATE]: () =>
        refuse
          ? answer(400, { errors: [{ message: 'This number cannot receive text messages.', code: 'invalid', field: 'phone_number' }] })
          : answer(201, apiInvitation({ channel: 'sms', sent_to: '+44 7700900123' })),
    });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Country code'), screen.getByRole('option', { name: 'United Kingdom (+44)' }));
    await user.type(screen.getByLabelText('Phone number'), '7700900123');
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('This number cannot receive text messages.')).toBeInTheDocument();
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/referral-code'));
    expect(created(calls).at(-1)).toEqual({ phone_number: { country_code: '+44', national_number: '7700900123' } });
  });
});

describe('another type', () => {
  it('is an unknown path', async () => {
    open('/refer/whatsapp', {});
    expect(await screen.findByText('Start screen')).toBeInTheDocument();
  });
});
