// The wallet create flow (spec §4 "Wallet create flow", §7, §8, §9) with the API answered at
// fetch and Stripe.js mocked at the lib/stripe boundary; edit and the wallet details.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, apiCard, apiStoredAccount, makeTestStore, NO_WALLET, renderAt, serve, type ApiCall } from '../../../testing';
import { DIALOG } from '../../../lib/ui/uiSlice';
import { StoredAccountPage } from './StoredAccountPage';

// A plain function rather than a vi.fn: a spy's own bookkeeping of a rejected promise would fail
// the test that checks the rejection is handled.
const confirmCardPayment = vi.fn();
let stripeLoads = true;
vi.mock('../../../lib/stripe', () => ({
  confirmCardPayment: (secret: string) => (stripeLoads ? (confirmCardPayment(secret) as unknown) : Promise.reject(new Error('Failed to load Stripe.js'))),
  isCardDeclined: (error: { code?: string; decline_code?: string }) => error?.code === 'card_declined' || Boolean(error?.decline_code),
}));

beforeEach(() => {
  confirmCardPayment.mockReset();
  stripeLoads = true;
});
afterEach(() => vi.unstubAllGlobals());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function setup(path: string, { benefitApplied = false, account = NO_WALLET as unknown, routes = {} as Record<string, unknown> } = {}) {
  let stored = account;
  const calls = serve({
    'GET accounts/me/': { username: 'ann', one_time_benefit_applied: benefitApplied, credit_card_wallet_balance: 0 },
    'GET payments/payment-methods/get/': { payment_methods: [apiCard(), apiCard({ id: 'pm_mc', brand: 'mastercard', last4: '4444', default_method: false })] },
    'GET payments/stored-account/get/': () => stored,
    'GET payments/evidentia-wallet/get/': { balance: 2500, currency: 'usd' },
    'POST payments/payment-intent/create/': { client_secret: 'pi_1_secret_x', payment_intent_id: 'pi_1' },
    'POST payments/stored-account/update/': (call: ApiCall) => {
      const body = call.body as { auto_topping_up_amount: number; payment_method_id: string };
      stored = apiStoredAccount({ auto_topping_up_amount: body.auto_topping_up_amount, payment_method_id: body.payment_method_id });
      return stored;
    },
    ...routes,
  });
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/stored-account', element: <StoredAccountPage /> },
      { path: '/wallet-congratulations', element: <p>Congratulations screen</p> },
      { path: '/refer-a-friend', element: <p>Refer a friend screen</p> },
      { path: '/checkout', element: <p>Checkout screen</p> },
      { path: '/dashboard/settings', element: <p>Settings screen</p> },
    ],
    path,
  );
  return { calls, store, ...view };
}

/** Picks $25 and ticks both authorisations on the create form. */
async function fillCreateForm() {
  const form = await screen.findByRole('dialog', { name: 'Create CreditCard Wallet' });
  await within(form).findByRole('radio', { name: /Visa \*\*\*\* 4242/ });
  fireEvent.click(within(form).getByRole('button', { name: '$25' }));
  for (const box of within(form).getAllByRole('checkbox')) fireEvent.click(box);
  return form;
}

const submit = async (form: HTMLElement) => {
  await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Transfer Money and Create CreditCard Wallet' })));
};

describe('wallet create flow', () => {
  it('charges the auto top-up amount (action 2, cents, an Idempotency-Key), stores the wallet, then congratulates', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const { calls, router } = setup('/stored-account?mode=create');
    const form = await fillCreateForm();
    await submit(form);
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet-congratulations'), { timeout: 3000 });

    const intent = calls.find((c) => c.path === 'payments/payment-intent/create/');
    expect(intent?.body).toEqual({ payment_method_id: 'pm_visa', metadata: { action: 2, amount: 2500 } });
    expect(intent?.idempotencyKey).toMatch(UUID);
    expect(confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x');
    const update = calls.find((c) => c.path === 'payments/stored-account/update/');
    expect(update?.body).toEqual({ auto_topping_up_amount: 2500, payment_method_id: 'pm_visa' });
    expect(calls.indexOf(update as ApiCall)).toBeGreaterThan(calls.indexOf(intent as ApiCall));
  });

  it('waits 1 second after the confirmation, then refreshes the user', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const { calls, router } = setup('/stored-account?mode=create');
    await submit(await fillCreateForm());
    const updatedAt = Date.now();
    const meCalls = () => calls.filter((c) => c.path === 'accounts/me/').length;
    const before = meCalls();
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet-congratulations'), { timeout: 3000 });
    expect(Date.now() - updatedAt).toBeGreaterThanOrEqual(900);
    await waitFor(() => expect(meCalls()).toBeGreaterThan(before));
  });

  it("with the one-time benefit already applied: 'Your CreditCard Wallet has been created.' and the wallet", async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const { store, router } = setup('/stored-account?mode=create', { benefitApplied: true });
    await submit(await fillCreateForm());
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: 'Your CreditCard Wallet has been created.' }), {
      timeout: 3000,
    });
    expect(router.state.location.pathname).toBe('/stored-account');
    expect(router.state.location.search).toBe('');
    expect(await screen.findByTestId('wallet-auto-load')).toHaveTextContent('$25.00');
  });

  it('goes on to refer-a-friend with ?refer=true', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const { router } = setup('/stored-account?mode=create&refer=true', { benefitApplied: true });
    await submit(await fillCreateForm());
    await waitFor(() => expect(router.state.location.pathname).toBe('/refer-a-friend'), { timeout: 3000 });
  });

  it('close-on-created closes the form (back to where it was opened) instead of congratulating', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_1', status: 'succeeded' } });
    const { store, router } = setup(`/stored-account?mode=create&close-on-created=true&return-to=${encodeURIComponent('/checkout?months=3')}`);
    await submit(await fillCreateForm());
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'), { timeout: 3000 });
    expect(router.state.location.search).toBe('?months=3');
    expect(store.getState().snackbar.message).toBe('Your CreditCard Wallet has been created.');
  });

  it('a declined card opens the failed-payment dialog and stores nothing', async () => {
    confirmCardPayment.mockResolvedValue({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    const { calls, store } = setup('/stored-account?mode=create');
    await submit(await fillCreateForm());
    await screen.findByText('Your Card was declined');
    expect(store.getState().ui.dialog).toBe(DIALOG.failedPayment);
    expect(calls.some((c) => c.path === 'payments/stored-account/update/')).toBe(false);
    // 'Change Card' off checkout closes the dialog over the form, to pick another card.
    fireEvent.click(screen.getByRole('button', { name: 'Change Card' }));
    expect(screen.getByRole('dialog', { name: 'Create CreditCard Wallet' })).toBeInTheDocument();
  });

  it("another confirmation error shows the provider's message", async () => {
    confirmCardPayment.mockResolvedValue({ error: { type: 'card_error', code: 'expired_card', message: 'Your card has expired.' } });
    const { store, calls } = setup('/stored-account?mode=create');
    await submit(await fillCreateForm());
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'error', message: 'Your card has expired.' }));
    expect(store.getState().ui.dialog).toBeNull();
    expect(calls.some((c) => c.path === 'payments/stored-account/update/')).toBe(false);
  });

  it("an error without a message: 'An error occured please try again later' (sic)", async () => {
    confirmCardPayment.mockResolvedValue({ error: { type: 'api_error' } });
    const { store } = setup('/stored-account?mode=create');
    await submit(await fillCreateForm());
    await waitFor(() => expect(store.getState().snackbar.message).toBe('An error occured please try again later'));
  });

  it('Stripe.js failing to load is another error', async () => {
    stripeLoads = false;
    const { store } = setup('/stored-account?mode=create');
    await submit(await fillCreateForm());
    await waitFor(() => expect(store.getState().snackbar.message).toBe('An error occured please try again later'));
  });
});

describe('the wallet', () => {
  it('without one, shows the intro, whose button opens the create form', async () => {
    setup('/stored-account');
    expect(await screen.findByRole('heading', { name: 'Create Your CreditCard Wallet' })).toBeInTheDocument();
    expect(screen.getByText('CreditCard Wallet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create CreditCard Wallet' }));
    expect(await screen.findByRole('dialog', { name: 'Create CreditCard Wallet' })).toBeInTheDocument();
  });

  it('with one, shows the balance, the wallet card and the auto-load amount', async () => {
    setup('/stored-account', { account: apiStoredAccount({ auto_topping_up_amount: 5000 }) });
    expect(await screen.findByTestId('wallet-balance')).toHaveTextContent('$25.00');
    expect(screen.getByTestId('wallet-card')).toHaveTextContent('Visa **** 4242');
    expect(screen.getByTestId('wallet-auto-load')).toHaveTextContent('$50.00');
  });

  it("edit saves the card and amount, says 'Your CreditCard Wallet has been updated.' and returns to settings", async () => {
    const { calls, store, router } = setup('/stored-account?mode=edit', { account: apiStoredAccount() });
    const form = await screen.findByRole('dialog', { name: 'Edit CreditCard Wallet' });
    await within(form).findByRole('radio', { name: /Mastercard \*\*\*\* 4444/ });
    expect(within(form).getByRole('button', { name: '$25' })).toHaveAttribute('aria-pressed', 'true');
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.click(within(form).getByRole('radio', { name: /Mastercard \*\*\*\* 4444/ }));
    for (const box of within(form).getAllByRole('checkbox')) fireEvent.click(box);
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/settings'));
    expect(calls.find((c) => c.path === 'payments/stored-account/update/')?.body).toEqual({ auto_topping_up_amount: 2500, payment_method_id: 'pm_mc' });
    expect(store.getState().snackbar.message).toBe('Your CreditCard Wallet has been updated.');
  });

  it('edit shows the server message when the update is refused', async () => {
    const { store } = setup('/stored-account?mode=edit', {
      account: apiStoredAccount(),
      routes: { 'POST payments/stored-account/update/': answer(400, { errors: [{ message: 'The card is not yours.', code: 'invalid' }] }) },
    });
    const form = await screen.findByRole('dialog', { name: 'Edit CreditCard Wallet' });
    await within(form).findByRole('radio', { name: /Visa/ });
    for (const box of within(form).getAllByRole('checkbox')) fireEvent.click(box);
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(store.getState().snackbar.message).toBe('The card is not yours.'));
  });
});
