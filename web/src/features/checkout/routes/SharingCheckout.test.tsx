// Checkout of a share (spec §2, §4, §7, §8): the draft's copies priced by sharing-price, paid with
// sharing/folder/{id}/share/ from the wallet or by card with an Idempotency-Key per attempt; a
// 402 card_declined opens the failed-payment dialog and makes nothing.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, apiCard, apiStoredAccount, makeTestStore, renderAt, serve, type ApiCall } from '../../../testing';
import { EXPIRED_MESSAGE } from '../../../lib/api/evidence';
import { copyTypeChosen, itemsChosen, recipientAdded, shareStarted } from '../../../lib/sharing/draft';
import { DIALOG } from '../../../lib/ui/uiSlice';
import { CheckoutPage } from './CheckoutPage';

vi.mock('../../../lib/stripe', () => ({ confirmCardPayment: () => Promise.resolve({}), isCardDeclined: () => false }));

afterEach(() => vi.unstubAllGlobals());

const PRICE = { price: 998, service_fee: 200, processing_fee: 64, wallet_saving: 20, total: 1262, wallet_total: 1178, currency: 'usd' };

const PAID = {
  share: { id: 'share-1', folder_id: 'f1', copy_type: 'authenticated', recipients: [] },
  transaction: { id: 'tx9', transaction_number: 'EVD-2026-000042', kind: 'sharing', description: 'Sharing', total: 1178, paid_from_wallet: 1178 },
  stored_account: apiStoredAccount(),
};

function setup(pay: unknown | ((call: ApiCall) => unknown), { draft = true } = {}) {
  const calls = serve({
    'GET evidence/folders/f1/': { id: 'f1', name: 'Car rental', file_count: 2, used_bytes: 10, expired: false, expire_soon: false, expiration_date: '2027-01-01T00:00:00Z' },
    'POST payments/sharing-price/calculate/': PRICE,
    'GET payments/stored-account/get/': apiStoredAccount(),
    'GET payments/payment-methods/get/': { payment_methods: [apiCard({ wallet: true })] },
    'POST sharing/folder/f1/share/': pay,
  });
  const store = makeTestStore();
  if (draft) {
    store.dispatch(shareStarted('f1'));
    store.dispatch(itemsChosen({ wholeFolder: false, itemIds: ['i1', 'i2'] }));
    store.dispatch(copyTypeChosen('authenticated'));
    store.dispatch(recipientAdded({ email: 'jane@example.com' }));
    store.dispatch(recipientAdded({ phoneNumber: { countryCode: '+1', nationalNumber: '5551234567' } }));
  }
  const view = renderAt(
    store,
    [
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/share-success', element: <p>Shared</p> },
      { path: '/payment-methods', element: <p>Payment methods</p> },
    ],
    '/checkout?kind=sharing&folderId=f1',
  );
  return { calls, store, ...view };
}

const shareCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === 'sharing/folder/f1/share/');

async function payButton() {
  const button = await screen.findByRole('button', { name: /^Pay \$/ });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

describe('checkout of a share', () => {
  it('prices the copies for the recipients and pays from the wallet with the draft, then shows the share', async () => {
    const { calls, router, store } = setup(answer(201, PAID));
    expect(await screen.findByText(/Authenticated Copy of 2 files for 2 recipients/)).toBeInTheDocument();
    expect(screen.getByTestId('checkout-recipients')).toHaveTextContent('jane@example.com, +1 5551234567');
    const button = await payButton();
    expect(button).toHaveTextContent('Pay $11.78');
    expect(calls.find((c) => c.path === 'payments/sharing-price/calculate/')?.body).toEqual({ copy_type: 'authenticated', recipients: 2 });

    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(router.state.location.pathname).toBe('/share-success'));
    expect(router.state.location.search).toBe('?folderId=f1&shareId=share-1&transactionId=tx9');
    const [call] = shareCalls(calls);
    expect(call?.body).toEqual({
      copy_type: 'authenticated',
      item_ids: ['i1', 'i2'],
      recipients: [{ email: 'jane@example.com' }, { phone_number: { country_code: '+1', national_number: '5551234567' } }],
      pay_with: 'wallet',
    });
    expect(call?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    // Paid: the draft is done with.
    await waitFor(() => expect(store.getState().sharingDraft.folderId).toBeNull());
  });

  it('a declined card (402 card_declined) opens the failed-payment dialog; nothing is made and the next attempt has a new key', async () => {
    const { calls, store, router } = setup(answer(402, { errors: [{ message: 'Your card was declined.', code: 'card_declined' }] }));
    fireEvent.click(await screen.findByRole('radio', { name: /Credit Card/ }));
    await act(async () => fireEvent.click(await payButton()));
    expect(await screen.findByText('Your Card was declined')).toBeInTheDocument();
    expect(screen.getByText('We were unable to process your payment. Please change your payment method.')).toBeInTheDocument();
    expect(store.getState().ui.dialog).toBe(DIALOG.failedPayment);
    expect(router.state.location.pathname).toBe('/checkout');
    // The draft stays for the next attempt.
    expect(store.getState().sharingDraft.recipients).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(shareCalls(calls)).toHaveLength(2));
    const [first, second] = shareCalls(calls);
    expect(first?.body).toMatchObject({ pay_with: 'card' });
    expect(second?.idempotencyKey).not.toBe(first?.idempotencyKey);
    await screen.findByText('Your Card was declined');
    fireEvent.click(screen.getByRole('button', { name: 'Change Card' }));
    expect(router.state.location.pathname).toBe('/payment-methods');
  });

  it('a retry after no answer re-sends the same Idempotency-Key', async () => {
    let n = 0;
    const { calls, router } = setup(() => (++n === 1 ? answer(503, { errors: [{ message: 'unavailable' }] }) : answer(201, PAID)));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(shareCalls(calls)).toHaveLength(1));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/share-success'));
    const [first, second] = shareCalls(calls);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it("an expired file is refused with the info message 'Please extend your Storage Date for this file.'", async () => {
    const { store } = setup(answer(400, { errors: [{ message: EXPIRED_MESSAGE, code: 'storage_expired' }] }));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: EXPIRED_MESSAGE }));
  });

  it('without a draft (another tab, or already paid) there is nothing to pay for', async () => {
    const { calls } = setup(answer(201, PAID), { draft: false });
    expect(await screen.findByText('There is nothing to pay for.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Share files' })).toHaveAttribute('href', '/share-files/f1');
    expect(calls.some((c) => c.path.startsWith('sharing/'))).toBe(false);
  });
});
