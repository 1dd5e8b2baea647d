// The futuregram panel of a capture situation: each futuregram's release and executors' answers (a
// declined one shows as declined), cancelling a release executors asked for, and an executor's
// address checked by the spec's e-mail rule before it joins the list.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, serve, type ApiCall } from '../../../testing';
import { makeSharingStore } from '../testing/helpers';
import { FuturegramPanel } from './FuturegramPanel';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const futuregram = (overrides: Record<string, unknown> = {}) => ({
  share_id: 'share-1',
  situation_id: 'sit-1',
  folder_id: 'folder-1',
  folder_name: 'Lease end',
  copy_type: 'authenticated',
  release_at: null,
  state: 'waiting',
  due_at: '2026-12-01T10:00:00Z',
  released_at: null,
  created_at: '2026-11-25T10:00:00Z',
  items: [{ id: 'i1', name: 'Photo_1', media_type: 'image' }],
  recipients: [{ sent_to: 'heir@example.com', channel: 'email' }],
  executors: [
    { id: 'e1', email: 'lawyer@example.com', phone: '', state: 'accepted', release_requested: true, vetoed: false, responded_at: null },
    { id: 'e2', email: 'friend@example.com', phone: '', state: 'declined', release_requested: false, vetoed: false, responded_at: null },
  ],
  recipients_paid: 1,
  payment_transaction_number: 'EVD-2026-000001',
  ...overrides,
});

function setup(routes: Record<string, unknown>) {
  const calls = serve(routes);
  renderAt(makeSharingStore(), [{ path: '/evidence', element: <FuturegramPanel situation="sit-1" folderId="folder-1" /> }], '/evidence');
  return calls;
}

describe('FuturegramPanel', () => {
  it('shows each executor’s answer and cancels a release executors asked for', async () => {
    const calls = setup({
      'GET sharing/futuregram/situation/sit-1/': { situation_id: 'sit-1', futuregrams: [futuregram()] },
      'POST sharing/futuregram/share-1/cancel-release/': futuregram({ state: 'pending', due_at: null }),
    });
    const card = await screen.findByTestId('futuregram');
    expect(card).toHaveTextContent('An executor asked for the release: it happens on Dec 1, 2026');
    const executors = within(card).getAllByTestId('futuregram-executor');
    expect(executors[0]).toHaveTextContent('lawyer@example.com — Accepted (asked for the release)');
    expect(executors[1]).toHaveTextContent('friend@example.com — Declined');
    await act(async () => fireEvent.click(within(card).getByRole('button', { name: 'Cancel the release' })));
    expect(calls.some((c) => c.method === 'POST' && c.path === 'sharing/futuregram/share-1/cancel-release/')).toBe(true);
  });

  it('schedules the same futuregram again with the key of the one whose answer was lost', async () => {
    let n = 0;
    const calls = setup({
      'GET sharing/futuregram/situation/sit-1/': { situation_id: 'sit-1', futuregrams: [] },
      'POST payments/sharing-price/calculate/': { price: 500, service_fee: 100, processing_fee: 30, wallet_saving: 10, total: 630, wallet_total: 590, currency: 'usd' },
      'POST sharing/scheduled-shares/create/': () => {
        if (++n === 1) throw new TypeError('Failed to fetch');
        return { futuregram: futuregram({ state: 'pending', due_at: null }), transaction: { id: 'tx1' } };
      },
    });
    const user = userEvent.setup();
    const fill = async () => {
      await user.click(await screen.findByRole('button', { name: 'Schedule a futuregram' }));
      await user.type(screen.getByLabelText('Email'), 'heir@example.com');
      await user.click(screen.getByRole('button', { name: 'Add Recipient' }));
      await user.type(screen.getByLabelText("Executor's e-mail"), 'lawyer@example.com');
      await user.click(screen.getByRole('button', { name: 'Add' }));
      await user.click(screen.getByRole('radio', { name: 'When my executors ask' }));
      await user.click(screen.getByRole('button', { name: 'Pay and Schedule' }));
    };
    await fill();
    expect(await screen.findByText('The network connection is poor or was lost.')).toBeInTheDocument();
    // Closed and scheduled again, the same way: the first attempt's key goes again.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await fill();
    const sent = (c: ApiCall) => c.path === 'sharing/scheduled-shares/create/';
    await waitFor(() => expect(calls.filter(sent)).toHaveLength(2));
    const [first, second] = calls.filter(sent);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(second?.body).toEqual(first?.body);
  });

  it('checks an executor’s address by the spec’s e-mail rule before adding it', async () => {
    setup({ 'GET sharing/futuregram/situation/sit-1/': { situation_id: 'sit-1', futuregrams: [] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule a futuregram' }));
    const input = screen.getByLabelText("Executor's e-mail");
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'Lawyer@Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(within(screen.getByRole('list', { name: 'Executors' })).getByText('lawyer@example.com')).toBeInTheDocument();
  });
});
