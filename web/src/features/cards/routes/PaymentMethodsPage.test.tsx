import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, makeTestStore, renderAt, serve } from '../../../testing';
import { apiCard } from '../testing/helpers';
import { PaymentMethodsPage } from './PaymentMethodsPage';

// The add-card dialog needs Stripe.js; its own flow is tested in model/addCard.test.ts.
vi.mock('../components/AddCardDialog', () => ({ AddCardDialog: () => <div role="dialog" aria-label="Add Credit Card" /> }));

const cards = [
  apiCard({ id: 'pm_1', last4: '4242', default_method: true, wallet: true }),
  apiCard({ id: 'pm_2', brand: 'mastercard', last4: '4444', fingerprint: 'fp_2', default_method: false, wallet: false }),
];

function renderPage() {
  const store = makeTestStore();
  const view = renderAt(store, [{ path: '/payment-methods', element: <PaymentMethodsPage /> }], '/payment-methods');
  return { store, ...view };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/payment-methods', () => {
  it('lists the cards with brand, digits, default and caption', async () => {
    serve({ 'GET payments/payment-methods/get/': { payment_methods: cards } });
    renderPage();
    const visa = await screen.findByRole('listitem', { name: 'Visa **** 4242' });
    expect(within(visa).getByText('Default')).toBeInTheDocument();
    expect(within(visa).getByText('Used for payments with Credit Card and CreditCard Wallet')).toBeInTheDocument();
    const mc = screen.getByRole('listitem', { name: 'Mastercard **** 4444' });
    expect(within(mc).queryByText('Default')).toBeNull();
    expect(within(mc).getByRole('img', { name: 'Mastercard' })).toBeInTheDocument();
  });

  it('disables Add Payment Method offline, and asks before opening the card dialog', async () => {
    serve({ 'GET payments/payment-methods/get/': { payment_methods: [] } });
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderPage();
    expect(screen.getByRole('button', { name: 'Add Payment Method' })).toBeDisabled();
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add Payment Method' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Add Payment Method' }));
    const confirm = screen.getByRole('dialog', { name: 'Add Payment Method' });
    expect(within(confirm).getByText('This payment method will be the default for credit card payments.')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('dialog', { name: 'Add Credit Card' })).toBeInTheDocument();
  });

  it('sets another card as default after its confirmation', async () => {
    const calls = serve({
      'GET payments/payment-methods/get/': { payment_methods: cards },
      'POST payments/payment-method/set-default/': { payment_methods: cards },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Controls of Mastercard **** 4444' }));
    await userEvent.click(screen.getByRole('button', { name: 'Set as Default for Payments with Credit Card' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Change Payment Method?' })).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'payments/payment-method/set-default/')?.body).toEqual({ payment_method_id: 'pm_2' }));
  });

  it('shows the default card as such, and tells a failed removal with the server message', async () => {
    serve({
      'GET payments/payment-methods/get/': { payment_methods: cards },
      'POST payments/payment-method/remove/': answer(400, { errors: [{ message: "Cannot remove user's default payment method. Set another method as default and try again." }] }),
    });
    const { store } = renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Controls of Visa **** 4242' }));
    expect(screen.getByRole('button', { name: 'Default for Payments' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove Credit Card?' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(store.getState().snackbar).toMatchObject({
        isShown: true,
        type: 'error',
        message: "Cannot remove user's default payment method. Set another method as default and try again.",
      }),
    );
  });

  it('tells a failed default change as info with the fallback message', async () => {
    serve({
      'GET payments/payment-methods/get/': { payment_methods: cards },
      'POST payments/payment-method/set-default/': answer(400, {}),
    });
    const { store } = renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Controls of Mastercard **** 4444' }));
    await userEvent.click(screen.getByRole('button', { name: 'Set as Default for Payments with Credit Card' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Change Payment Method?' })).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(store.getState().snackbar).toMatchObject({ isShown: true, type: 'info', message: 'Payment method was not changed.' }));
  });
});
