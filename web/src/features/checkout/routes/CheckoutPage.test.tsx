// Checkout (spec §2, §4, §7, §8): the breakdown by way of payment, paying from the wallet with an
// Idempotency-Key kept for the attempt, the 402 decline, the insufficient-funds dialog.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, apiCard, apiStoredAccount, makeTestStore, NO_WALLET, renderAt, serve, type ApiCall } from '../../../testing';
import { DIALOG } from '../../../lib/ui/uiSlice';
import { selectSignedIn } from '../../../lib/session/loginInfoSlice';
import { CheckoutPage } from './CheckoutPage';

vi.mock('../../../lib/stripe', () => ({ confirmCardPayment: () => Promise.resolve({}), isCardDeclined: () => false }));

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const PRICE = {
  price: 1000,
  service_fee: 200,
  processing_fee: 65,
  wallet_saving: 20,
  total: 1265,
  wallet_total: 1180,
  currency: 'usd',
  current_storage_date: '2026-12-01T00:00:00Z',
  new_storage_date: '2027-03-01T00:00:00Z',
};

const TRANSACTION = {
  id: 'tx1',
  transaction_number: 'EV-000001',
  kind: 'storage_extension',
  description: 'Storage for 3 months',
  folder_id: 'f1',
  months: 3,
  price: 1000,
  service_fee: 200,
  processing_fee: 0,
  wallet_saving: 20,
  total: 1180,
  paid_from_wallet: 1180,
  charged_to_card: 0,
  storage_expires_at: '2027-03-01T00:00:00Z',
  created_at: '2026-11-21T10:00:00Z',
};

function setup(pay: unknown | ((call: ApiCall) => unknown), account: unknown = apiStoredAccount()) {
  const calls = serve({
    'GET evidence/folders/f1/': { id: 'f1', name: 'Car rental', file_count: 1, used_bytes: 10, expired: false, expire_soon: false, expiration_date: '2026-12-01T00:00:00Z' },
    'POST payments/storage-price-prolong/calculate/': PRICE,
    'GET payments/stored-account/get/': account,
    'GET payments/payment-methods/get/': { payment_methods: [apiCard({ wallet: true })] },
    'POST payments/stored-account/pay/': pay,
  });
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/checkout', element: <CheckoutPage /> },
      { path: '/extend-storage-success', element: <p>Extended</p> },
      { path: '/payment-methods', element: <p>Payment methods</p> },
    ],
    '/checkout?kind=storage_extension&folderId=f1&months=3',
  );
  return { calls, store, ...view };
}

const payCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === 'payments/stored-account/pay/');
/** The Pay button once the wallet, the cards and the price are known. */
async function payButton() {
  const button = await screen.findByRole('button', { name: /^Pay \$/ });
  await waitFor(() => expect(button).toBeEnabled());
  return button;
}

describe('checkout', () => {
  it('pays from the wallet by default, at the wallet total, and shows the new storage date next', async () => {
    const { calls, router } = setup({ transaction: TRANSACTION, stored_account: apiStoredAccount() });
    const button = await payButton();
    expect(button).toHaveTextContent('Pay $11.80');
    const table = screen.getByRole('table', { name: 'Price breakdown' });
    expect(within(table).getByTestId('wallet-wallet-saving')).toHaveTextContent('-$0.20');
    expect(within(table).getByTestId('wallet-processing-fee')).toHaveTextContent('$0.00');
    expect(screen.getByText('saves $0.20 on service fees')).toBeInTheDocument();
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(router.state.location.pathname).toBe('/extend-storage-success'));
    expect(router.state.location.search).toBe('?transactionId=tx1&folderId=f1');
    const [call] = payCalls(calls);
    expect(call?.body).toEqual({ kind: 'storage_extension', folder_id: 'f1', months: 3, pay_with: 'wallet' });
    expect(call?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('by card: the card total with the processing fee', async () => {
    const { calls } = setup(answer(503, { errors: [{ message: 'down' }] }));
    fireEvent.click(await screen.findByRole('radio', { name: /Credit Card/ }));
    const button = await payButton();
    expect(button).toHaveTextContent('Pay $12.65');
    expect(screen.getByTestId('card-processing-fee')).toHaveTextContent('$0.65');
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(payCalls(calls)).toHaveLength(1));
    expect(payCalls(calls)[0]?.body).toMatchObject({ pay_with: 'card' });
  });

  it('a retry after no answer re-sends the same Idempotency-Key', async () => {
    let n = 0;
    const { calls, router } = setup(() => (++n === 1 ? answer(503, { errors: [{ message: 'unavailable' }] }) : { transaction: TRANSACTION, stored_account: apiStoredAccount() }));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(payCalls(calls)).toHaveLength(1));
    await waitFor(async () => expect(await payButton()).toBeEnabled());
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/extend-storage-success'));
    const [first, second] = payCalls(calls);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it('no answer says the network was lost; the same purchase started again after a reload re-sends its key', async () => {
    let n = 0;
    const pay = () => {
      if (++n === 1) throw new TypeError('Failed to fetch');
      return { transaction: TRANSACTION, stored_account: apiStoredAccount() };
    };
    const first = setup(pay);
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(first.store.getState().snackbar).toMatchObject({ type: 'error', message: 'The network connection is poor or was lost.' }));
    first.unmount();
    // The page opened afresh (a reload, or checkout left and entered again): the same purchase.
    const again = setup(pay);
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(again.router.state.location.pathname).toBe('/extend-storage-success'));
    expect(payCalls(again.calls)[0]?.idempotencyKey).toBe(payCalls(first.calls)[0]?.idempotencyKey);
    again.unmount();
    // Settled by the answer: the next purchase is a new one.
    const next = setup(pay);
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(payCalls(next.calls)).toHaveLength(1));
    expect(payCalls(next.calls)[0]?.idempotencyKey).not.toBe(payCalls(first.calls)[0]?.idempotencyKey);
  });

  it('the session ended (its refresh refused too) logs out without the gateway\'s words', async () => {
    const sessionEnded = answer(401, { errors: [{ message: 'Your session has ended. Please log in again.', code: 'token_not_valid' }] });
    const { store } = setup(sessionEnded);
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(selectSignedIn(store.getState())).toBe(false));
    expect(store.getState().snackbar.message).not.toBe('Your session has ended. Please log in again.');
  });

  it('a declined card (402 card_declined) opens the failed-payment dialog; the next attempt has a new key', async () => {
    const { calls, store, router } = setup(answer(402, { errors: [{ message: 'Your card was declined.', code: 'card_declined' }] }));
    await act(async () => fireEvent.click(await payButton()));
    expect(await screen.findByText('Your Card was declined')).toBeInTheDocument();
    expect(store.getState().ui.dialog).toBe(DIALOG.failedPayment);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(payCalls(calls)).toHaveLength(2));
    const [first, second] = payCalls(calls);
    expect(second?.idempotencyKey).not.toBe(first?.idempotencyKey);
    // On checkout, 'Change Card' goes to the payment methods.
    await screen.findByText('Your Card was declined');
    fireEvent.click(screen.getByRole('button', { name: 'Change Card' }));
    expect(router.state.location.pathname).toBe('/payment-methods');
  });

  it('another refusal shows the server message', async () => {
    const { store } = setup(answer(400, { errors: [{ message: 'The folder has been deleted.', code: 'not_found' }] }));
    await act(async () => fireEvent.click(await payButton()));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ type: 'error', message: 'The folder has been deleted.' }));
  });

  it('without a wallet, pays by card and offers to create one', async () => {
    setup({}, NO_WALLET);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay \$/ })).toHaveTextContent('Pay $12.65'));
    expect(screen.getByRole('radio', { name: /CreditCard Wallet/ })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Create CreditCard Wallet' })).toHaveAttribute(
      'href',
      `/stored-account?mode=create&close-on-created=true&return-to=${encodeURIComponent('/checkout?kind=storage_extension&folderId=f1&months=3')}`,
    );
  });

  it('opens the insufficient-funds dialog when the last auto top-up failed', async () => {
    setup({}, apiStoredAccount({ last4: '0341', top_up_error: 'Your card has insufficient funds.' }));
    expect(await screen.findByText('Insufficient Funds on your credit card')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Change Payment Method' }));
    expect(await screen.findByRole('dialog', { name: 'Top-up CreditCard Wallet' })).toBeInTheDocument();
  });
});
