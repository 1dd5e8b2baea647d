// The participants screen: the lists, the controls each role gets (owner, admin, member), remove
// with its confirmation, role changes, revoking invites, and the invite dialog by e-mail and by
// SMS with its rules and server errors; an account outside any organization.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, type ApiCall, makeTestStore, noContent, renderAt, serve } from '../../../testing';
import { CHANNEL_HINTS } from '../components/InviteDialog';
import { NOT_AN_ORGANIZATION } from '../model/messages';
import { ADMIN, apiOrganization, EMAIL_INVITE, MEMBER, OWNER, SMS_INVITE } from '../testing/helpers';
import { ParticipantsPage } from './ParticipantsPage';

afterEach(() => vi.unstubAllGlobals());

const LIST = { participants: [OWNER, ADMIN, MEMBER], invites: [EMAIL_INVITE, SMS_INVITE] };

function routesFor(role: string, extra: Record<string, unknown> = {}) {
  return {
    'GET accounts/organization/': apiOrganization(role),
    'GET accounts/organization/participants/': role === 'member' ? { ...LIST, invites: [] } : LIST,
    ...extra,
  };
}

function open() {
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/organization-participants', element: <ParticipantsPage /> },
      { path: '/dashboard/organization-captures', element: <p>Organization captures</p> },
    ],
    '/organization-participants',
  );
  return { ...view, store };
}

const rowOf = (text: string) => {
  const row = screen.getAllByTestId('participant').find((li) => li.textContent?.includes(text));
  if (!row) throw new Error(`no participant row with ${text}`);
  return row;
};
// The profile (read by most screens, and here to know an account outside any organization) aside.
const routes = (calls: ApiCall[]) => calls.map((c) => `${c.method} ${c.path}`).filter((r) => r !== 'GET accounts/me/');
const errorOf = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};

describe('the lists', () => {
  it('shows each participant with name or username, e-mail, role and joined date, and the pending invites', async () => {
    serve(routesFor('owner'));
    open();
    await screen.findByText('Bob Stone');
    expect(screen.getByTestId('my-role')).toHaveTextContent('Owner');
    expect(screen.getByTestId('participant-count')).toHaveTextContent('3 participants');
    const ann = rowOf('Ann Lee');
    expect(ann).toHaveTextContent('ann@example.com');
    expect(ann).toHaveTextContent('Joined Nov 1, 2026');
    expect(within(ann).getByText('Owner')).toHaveClass('org-badge');
    // No first or last name: the username.
    expect(rowOf('dan@example.com')).toHaveTextContent(/^dan/);
    expect(rowOf('Bob Stone')).toHaveTextContent('Joined Nov 20, 2026');

    const invites = screen.getAllByTestId('invite');
    expect(invites).toHaveLength(2);
    expect(invites[0]).toHaveTextContent('cy@example.com');
    expect(invites[0]).toHaveTextContent('By E-mail · Expires Nov 28, 2026');
    expect(within(invites[0]!).getByText('Member')).toHaveClass('org-badge');
    expect(invites[1]).toHaveTextContent('+1 5551234567');
    expect(invites[1]).toHaveTextContent('By SMS · Expires Nov 27, 2026');
    expect(within(invites[1]!).getByText('Admin')).toHaveClass('org-badge');
  });

  it('says when no invite is pending', async () => {
    serve(routesFor('owner', { 'GET accounts/organization/participants/': { participants: [OWNER], invites: [] } }));
    open();
    expect(await screen.findByText('No pending invites.')).toBeInTheDocument();
    expect(screen.getByTestId('participant-count')).toHaveTextContent('1 participant');
  });
});

describe('the controls by role', () => {
  it('the owner invites, revokes, removes anyone but themself and changes their roles', async () => {
    serve(routesFor('owner'));
    open();
    await screen.findByText('Bob Stone');
    expect(screen.getByRole('button', { name: 'Invite Participant' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Ann Lee' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Role of Ann Lee' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove dan' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Bob Stone' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Role of dan' })).toHaveValue('admin');
    expect(screen.getByRole('combobox', { name: 'Role of Bob Stone' })).toHaveValue('member');
    expect(screen.getAllByRole('button', { name: /^Revoke the invite to/ })).toHaveLength(2);
  });

  it('an admin invites, revokes and removes members only, and changes no role', async () => {
    serve(routesFor('admin'));
    open();
    await screen.findByText('Bob Stone');
    expect(screen.getByTestId('my-role')).toHaveTextContent('Admin');
    expect(screen.getByRole('button', { name: 'Invite Participant' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Ann Lee' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove dan' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Bob Stone' })).toBeInTheDocument();
    expect(screen.queryAllByRole('combobox')).toEqual([]);
    expect(within(rowOf('Bob Stone')).getByText('Member')).toHaveClass('org-badge');
    expect(screen.getAllByRole('button', { name: /^Revoke the invite to/ })).toHaveLength(2);
  });

  it('a member only sees the list', async () => {
    serve(routesFor('member'));
    open();
    await screen.findByText('Bob Stone');
    expect(screen.getByTestId('my-role')).toHaveTextContent('Member');
    expect(screen.queryByRole('button', { name: 'Invite Participant' })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /^Remove/ })).toEqual([]);
    expect(screen.queryAllByRole('combobox')).toEqual([]);
    expect(screen.queryByRole('heading', { name: 'Pending Invites' })).toBeNull();
    expect(screen.queryAllByTestId('invite')).toEqual([]);
    expect(within(rowOf('Ann Lee')).getByText('Owner')).toBeInTheDocument();
  });
});

describe('removing a participant', () => {
  it('asks first, then removes and refreshes the list', async () => {
    const calls = serve(routesFor('owner', { 'DELETE accounts/organization/participants/u-member/': noContent() }));
    const { store } = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove Bob Stone' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Participant?' });
    expect(dialog).toHaveTextContent('Bob Stone will no longer be a participant of Acme Rentals.');
    expect(routes(calls)).not.toContain('DELETE accounts/organization/participants/u-member/');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Participant was removed.', type: 'info' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(routes(calls).filter((r) => r === 'GET accounts/organization/participants/')).toHaveLength(2));
  });

  it('Cancel removes no one', async () => {
    const calls = serve(routesFor('owner'));
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove dan' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('a refusal shows the server message', async () => {
    serve(
      routesFor('admin', {
        'DELETE accounts/organization/participants/u-member/': answer(403, {
          errors: [{ message: 'You do not have permission to do this.', code: 'forbidden' }],
        }),
      }),
    );
    const { store } = open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove Bob Stone' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'You do not have permission to do this.', type: 'error' }),
    );
  });
});

describe('changing a role and revoking an invite', () => {
  it('the owner makes a member an admin', async () => {
    const calls = serve(routesFor('owner', { 'PATCH accounts/organization/participants/u-member/': noContent() }));
    const { store } = open();
    await userEvent.setup().selectOptions(await screen.findByRole('combobox', { name: 'Role of Bob Stone' }), 'Admin');
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Bob Stone is now Admin.' }));
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: 'accounts/organization/participants/u-member/',
      body: { role: 'admin' },
    });
    await waitFor(() => expect(routes(calls).filter((r) => r === 'GET accounts/organization/participants/')).toHaveLength(2));
  });

  it('revokes an invite', async () => {
    const calls = serve(routesFor('admin', { 'DELETE accounts/organization/invites/inv-1/': noContent() }));
    const { store } = open();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Revoke the invite to cy@example.com' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Invite was revoked.' }));
    expect(routes(calls)).toContain('DELETE accounts/organization/invites/inv-1/');
  });
});

describe('the invite dialog', () => {
  async function openDialog() {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite Participant' }));
    return { user, dialog: screen.getByRole('dialog', { name: 'Invite Participant' }) };
  }

  it('by e-mail asks for an address, as a member unless chosen otherwise', async () => {
    const created = { ...EMAIL_INVITE, id: 'inv-3', sent_to: 'eve@example.com' };
    const calls = serve(routesFor('owner', { 'POST accounts/organization/invites/': answer(201, created) }));
    const { store } = open();
    const { user, dialog } = await openDialog();
    expect(within(dialog).getByRole('radio', { name: 'By E-mail' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Member' })).toBeChecked();
    expect(within(dialog).getByLabelText('Email')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Phone number')).toBeNull();
    expect(dialog).toHaveTextContent(CHANNEL_HINTS.email);

    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(errorOf('Email')).toBe('This field is required');
    await user.type(within(dialog).getByLabelText('Email'), 'eve@');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(errorOf('Email')).toBe('Please enter a valid email address');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText('Email'), 'example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Invite sent to eve@example.com.' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'eve@example.com', role: 'member' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(routes(calls).filter((r) => r === 'GET accounts/organization/participants/')).toHaveLength(2));
  }, 20000);

  it('by SMS asks for a phone number of 9 to 11 digits instead, and sends the chosen role', async () => {
    const created = { ...SMS_INVITE, id: 'inv-4', sent_to: '+1 4155550123' };
    const calls = serve(routesFor('owner', { 'POST accounts/organization/invites/': answer(201, created) }));
    const { store } = open();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: 'By SMS' }));
    expect(within(dialog).queryByLabelText('Email')).toBeNull();
    expect(within(dialog).getByLabelText('Phone number')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Country code')).toHaveValue('+1');
    expect(dialog).toHaveTextContent(CHANNEL_HINTS.sms);
    expect(dialog).not.toHaveTextContent(CHANNEL_HINTS.email);

    const phone = within(dialog).getByLabelText('Phone number');
    await user.type(phone, '41555501');
    await user.tab();
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    expect(await within(dialog).findByText('Minimum 9 digits')).toBeInTheDocument();
    await user.type(phone, '2345');
    await user.tab();
    expect(await within(dialog).findByText('Maximum 11 digits')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(phone);
    await user.type(phone, '4155550123');
    await user.tab();
    await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'Invite sent to +1 4155550123.' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      phone_number: { country_code: '+1', national_number: '4155550123' },
      role: 'admin',
    });
  }, 20000);

  it('lets the owner give Admin or Member, and an admin Member only', async () => {
    serve(routesFor('owner'));
    const owner = open();
    const { dialog } = await openDialog();
    expect(
      within(dialog)
        .getAllByRole('radio', { name: /^(Admin|Member)$/ })
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['admin', 'member']);
    owner.unmount();
    vi.unstubAllGlobals();

    serve(routesFor('admin'));
    open();
    const second = await openDialog();
    expect(within(second.dialog).queryByRole('radio', { name: 'Admin' })).toBeNull();
    expect(within(second.dialog).getByRole('radio', { name: 'Member' })).toBeChecked();
  });

  it('puts a server field error under its field and stays open', async () => {
    serve(
      routesFor('owner', {
        'POST accounts/organization/invites/': answer(400, {
          errors: [{ message: 'This person is already a participant.', code: 'exists', field: 'email' }],
        }),
      }),
    );
    const { store } = open();
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Email'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(errorOf('Email')).toBe('This person is already a participant.'));
    expect(screen.getByRole('dialog', { name: 'Invite Participant' })).toBeInTheDocument();
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('shows any other error in the snackbar and stays open', async () => {
    serve(
      routesFor('admin', {
        'POST accounts/organization/invites/': answer(403, {
          errors: [{ message: 'You do not have permission to do this.', code: 'forbidden' }],
        }),
      }),
    );
    const { store } = open();
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Email'), 'eve@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invite' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, message: 'You do not have permission to do this.', type: 'error' }),
    );
    expect(screen.getByRole('dialog', { name: 'Invite Participant' })).toBeInTheDocument();
  });

  it('Cancel closes it without sending', async () => {
    const calls = serve(routesFor('owner'));
    open();
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('outside any organization', () => {
  it('says the screen is for organization accounts and lists nothing', async () => {
    const calls = serve({
      'GET accounts/organization/': answer(404, { errors: [{ message: 'You are not in an organization.', code: 'not_found' }] }),
    });
    open();
    expect(await screen.findByText(NOT_AN_ORGANIZATION)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up as an Organization' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Settings/ })).toHaveAttribute('href', '/dashboard/settings');
    expect(routes(calls)).toEqual(['GET accounts/organization/']);
  });

  it('asks nothing of the organization when the profile already says the account is in none', async () => {
    const calls = serve({ 'GET accounts/me/': { id: 'u1', username: 'ann', account_type: 'individual', organization: null } });
    open();
    expect(await screen.findByText(NOT_AN_ORGANIZATION)).toBeInTheDocument();
    expect(routes(calls)).toEqual([]);
  });

  it('shows another failure with a way to try again', async () => {
    let attempts = 0;
    serve({
      'GET accounts/organization/': () =>
        ++attempts === 1 ? answer(403, { errors: [{ message: 'Please log in again.', code: 'forbidden' }] }) : apiOrganization('member'),
      'GET accounts/organization/participants/': { participants: [OWNER], invites: [] },
    });
    open();
    expect(await screen.findByText('Please log in again.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Ann Lee')).toBeInTheDocument();
  });
});
