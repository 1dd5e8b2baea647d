// My Invitations: the rows (name or address, channel, status, date), the sort sent to the server,
// Resend held back until resend_after and its 429 message, Delete after a confirmation, the poll
// every 30 s while open, and the loading and failure states.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, noContent, queriesOf, renderAt, serve, type Route } from '../../../testing';
import { apiInvitation } from '../testing/helpers';
import { DELETED, LIST_NOT_LOADED, ReferralCodePage, RESENT } from './ReferralCodePage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const ANN = apiInvitation();
const BOB = apiInvitation({
  id: '0192f0aa-0000-7000-8000-000000000002',
  channel: 'sms',
  sent_to: '+1 5550100123',
  name: '',
  status: 'signed_up',
  last_sent_at: '2026-11-21T10:00:00Z',
  sends: 2,
});

function open(routes: Record<string, Route>) {
  const calls = serve(routes);
  const store = makeTestStore();
  renderAt(store, [{ path: '/referral-code', element: <ReferralCodePage /> }], '/referral-code');
  return { calls, store };
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('my invitations', () => {
  it('lists each invitation with who, channel, status and date', async () => {
    open({ 'GET shareable-codes/retrieve/': { invitations: [ANN, BOB] } });
    const ann = within(await screen.findByRole('listitem', { name: 'Ann' }));
    expect(ann.getByText('friend@example.com')).toBeInTheDocument();
    expect(ann.getByText('E-mail')).toBeInTheDocument();
    expect(ann.getByText('Invited')).toBeInTheDocument();
    expect(ann.getByText(/Sent Nov 20, 2026/)).toBeInTheDocument();
    const bob = within(row('+1 5550100123'));
    expect(bob.getByText('SMS')).toBeInTheDocument();
    expect(bob.getByText('Signed up')).toBeInTheDocument();
    expect(bob.getByText('Sent Nov 21, 2026 (2 times)')).toBeInTheDocument();
    // A friend who signed up needs no reminder.
    expect(bob.queryByRole('button', { name: /Resend/ })).not.toBeInTheDocument();
  });

  it('asks the server for the chosen order', async () => {
    open({ 'GET shareable-codes/retrieve/': { invitations: [ANN] } });
    await screen.findByRole('listitem', { name: 'Ann' });
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Name');
    await waitFor(() => expect(queriesOf('shareable-codes/retrieve/')).toEqual(['?sorting=newest', '?sorting=name']));
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Status');
    await waitFor(() => expect(queriesOf('shareable-codes/retrieve/')).toContain('?sorting=status'));
  });

  it('shows no more than 50 invitations', async () => {
    const many = Array.from({ length: 51 }, (_, i) => apiInvitation({ id: `id-${i}`, name: `Friend ${i}` }));
    open({ 'GET shareable-codes/retrieve/': { invitations: many } });
    await screen.findByRole('listitem', { name: 'Friend 0' });
    expect(within(screen.getByRole('list', { name: 'Invitations' })).getAllByRole('listitem')).toHaveLength(50);
  });

  it('holds Resend back until resend_after, then resends', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const { calls, store } = open({
      'GET shareable-codes/retrieve/': { invitations: [apiInvitation({ resend_after: soon })] },
      [`POST shareable-codes/${ANN.id}/resend/`]: apiInvitation({ sends: 2 }),
    });
    const resend = await screen.findByRole('button', { name: 'Resend to Ann' });
    expect(resend).toBeDisabled();
    expect(within(row('Ann')).getByText(/Can be sent again from/)).toBeInTheDocument();
    await waitFor(() => expect(resend).toBeEnabled(), { timeout: 3000 });
    await userEvent.click(resend);
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: RESENT }));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`shareable-codes/${ANN.id}/resend/`]);
  });

  it('offers no Resend for an invitation sent as often as it may be', async () => {
    open({ 'GET shareable-codes/retrieve/': { invitations: [apiInvitation({ sends: 5, sends_left: 0 })] } });
    await within(await screen.findByRole('listitem', { name: 'Ann' })).findByText('Sent 5 times: it cannot be sent again.');
    expect(screen.queryByRole('button', { name: 'Resend to Ann' })).not.toBeInTheDocument();
  });

  it("shows the server's message when a resend comes too soon", async () => {
    const { store } = open({
      'GET shareable-codes/retrieve/': { invitations: [ANN] },
      [`POST shareable-codes/${ANN.id}/resend/`]: answer(429, { errors: [{ message: 'You can resend this invitation in 10 minutes.', code: 'too_many_requests' }] }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Resend to Ann' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'You can resend this invitation in 10 minutes.' }),
    );
  });

  it('deletes an invitation only after the confirmation', async () => {
    let list = [ANN, BOB];
    const { calls, store } = open({
      'GET shareable-codes/retrieve/': () => ({ invitations: list }),
      [`DELETE shareable-codes/${ANN.id}/delete/`]: () => {
        list = [BOB];
        return noContent();
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete the invitation to Ann' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete invitation?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete the invitation to Ann' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete invitation?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, message: DELETED }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Ann' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`shareable-codes/${ANN.id}/delete/`]);
  });

  it('refreshes the list every 30 seconds while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    open({ 'GET shareable-codes/retrieve/': { invitations: [ANN] } });
    await screen.findByRole('listitem', { name: 'Ann' });
    expect(queriesOf('shareable-codes/retrieve/')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(queriesOf('shareable-codes/retrieve/')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(queriesOf('shareable-codes/retrieve/')).toHaveLength(2));
  });

  it('says the list could not be loaded, and that there is no invitation yet', async () => {
    let fail = true;
    open({ 'GET shareable-codes/retrieve/': () => (fail ? answer(400, { errors: [{ message: 'No.' }] }) : { invitations: [] }) });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your invitations...');
    expect(await screen.findByText(LIST_NOT_LOADED)).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have not invited anyone yet.')).toBeInTheDocument();
  });
});
