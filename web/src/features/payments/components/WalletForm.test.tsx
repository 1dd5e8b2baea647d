// The wallet form's three modes (spec §2 "Wallet screen", §5 "Wallet amount" and "Wallet forms")
// and the top-up stored account dialog's flow (spec §4 "Wallet edit and top-up", action 4).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALOG, dialogOpened } from '../../../lib/ui/uiSlice';
import { apiCard, apiStoredAccount, makeTestStore, renderAt, serve } from '../../../testing';
import { TopUpStoredAccountDialog } from './TopUpStoredAccountDialog';
import { WalletForm } from './WalletForm';
import type { WalletMode } from '../model/walletRules';

const confirmCardPayment = vi.fn();
vi.mock('../../../lib/stripe', () => ({
  confirmCardPayment: (secret: string) => confirmCardPayment(secret) as unknown,
  isCardDeclined: (error: { code?: string }) => error?.code === 'card_declined',
}));

afterEach(() => vi.unstubAllGlobals());

function renderForm(mode: WalletMode, onClose: () => void = () => {}) {
  serve({ 'GET payments/payment-methods/get/': { payment_methods: [apiCard()] } });
  const onSubmit = vi.fn();
  renderAt(makeTestStore(), [{ path: '/', element: <WalletForm mode={mode} submitting={false} onSubmit={onSubmit} onClose={onClose} /> }], '/');
  return onSubmit;
}

async function openCustom() {
  await screen.findByRole('radio', { name: /Visa \*\*\*\* 4242/ });
  fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
  return screen.getByRole('dialog', { name: 'Custom Amount' });
}

describe('wallet form', () => {
  it('Escape closes the custom amount dialog first, then the form', async () => {
    const onClose = vi.fn();
    renderForm('top-up', onClose);
    const custom = await openCustom();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(custom).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('reads a decimal comma in the custom amount as the dot it means', async () => {
    renderForm('top-up');
    const custom = await openCustom();
    const field = within(custom).getByLabelText('Amount, $');
    fireEvent.change(field, { target: { value: '25,5' } });
    expect(field).toHaveValue('25.5');
  });

  it.each([
    ['create', 'Transfer Money and Create CreditCard Wallet'],
    ['edit', 'Save'],
  ] as const)('%s: enabled only with a card, an amount and both authorisations', async (mode, label) => {
    const onSubmit = renderForm(mode);
    await screen.findByRole('radio', { name: /Visa \*\*\*\* 4242/ });
    const button = screen.getByRole('button', { name: label });
    expect(button).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: '$50' }));
    expect(button).toBeDisabled();
    const [first, second] = screen.getAllByRole('checkbox');
    fireEvent.click(first as HTMLElement);
    expect(button).toBeDisabled();
    fireEvent.click(second as HTMLElement);
    expect(button).toBeEnabled();
    fireEvent.click(button);
    expect(onSubmit).toHaveBeenCalledWith({ cardId: 'pm_visa', amount: 5000 });
  });

  it('top-up: a card and an amount are enough, no checkboxes', async () => {
    const onSubmit = renderForm('top-up');
    await screen.findByRole('radio', { name: /Visa \*\*\*\* 4242/ });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    const button = screen.getByRole('button', { name: 'Top-up' });
    expect(button).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: '$10' }));
    fireEvent.click(button);
    expect(onSubmit).toHaveBeenCalledWith({ cardId: 'pm_visa', amount: 1000 });
  });

  it('the custom amount dialog shows the spec messages and applies a valid amount', async () => {
    const onSubmit = renderForm('top-up');
    const dialog = await openCustom();
    const field = within(dialog).getByLabelText('Amount, $');
    fireEvent.change(field, { target: { value: '9.5' } });
    expect(within(dialog).getByText('The amount should be more then 10$')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Apply' })).toBeDisabled();
    fireEvent.change(field, { target: { value: '100.5' } });
    expect(within(dialog).getByText('The amount should be less then 100$')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '12.345' } });
    expect(field).toHaveValue('100.5');
    fireEvent.change(field, { target: { value: '12.34' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(screen.queryByRole('dialog', { name: 'Custom Amount' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '$12.34' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Top-up' }));
    expect(onSubmit).toHaveBeenCalledWith({ cardId: 'pm_visa', amount: 1234 });
  });
});

describe('top-up stored account dialog', () => {
  it('charges the card (action 4), makes the new card the wallet card after a failed auto top-up, and says so', async () => {
    confirmCardPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    const calls = serve({
      'GET payments/payment-methods/get/': { payment_methods: [apiCard({ wallet: true, id: 'pm_0341', last4: '0341' }), apiCard({ id: 'pm_new', last4: '1881', default_method: false })] },
      'GET payments/stored-account/get/': apiStoredAccount({ payment_method_id: 'pm_0341', last4: '0341', top_up_error: 'insufficient funds' }),
      'POST payments/payment-intent/create/': { client_secret: 'cs', payment_intent_id: 'pi' },
      'POST payments/stored-account/update/': apiStoredAccount({ payment_method_id: 'pm_new' }),
    });
    const store = makeTestStore();
    renderAt(store, [{ path: '/stored-account', element: <TopUpStoredAccountDialog /> }], '/stored-account');
    act(() => {
      store.dispatch(dialogOpened(DIALOG.topUpStoredAccount));
    });
    const form = await screen.findByRole('dialog', { name: 'Top-up CreditCard Wallet' });
    expect(store.getState().ui.dialog).toBeNull();
    fireEvent.click(await within(form).findByRole('radio', { name: /1881/ }));
    fireEvent.click(within(form).getByRole('button', { name: '$25' }));
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Top-up' })));
    await waitFor(() => expect(store.getState().snackbar.message).toBe('Your CreditCard Wallet has been topped-up.'), { timeout: 3000 });
    expect(calls.find((c) => c.path === 'payments/payment-intent/create/')?.body).toEqual({ payment_method_id: 'pm_new', metadata: { action: 4, amount: 2500 } });
    expect(calls.find((c) => c.path === 'payments/stored-account/update/')?.body).toEqual({ auto_topping_up_amount: 2500, payment_method_id: 'pm_new' });
    expect(screen.queryByRole('dialog', { name: 'Top-up CreditCard Wallet' })).not.toBeInTheDocument();
  });
});
