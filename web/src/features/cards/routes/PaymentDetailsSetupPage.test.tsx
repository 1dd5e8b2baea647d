// The payment details setup after sign-up: a saved card says 'Card was added' (spec §2) and goes
// home; 'Skip for now' and leaving go home without a card. The form itself (card fields, promo
// codes, the add-card flow) is tested in PaymentInformationForm.test.tsx: here it is replaced at
// the module boundary by one that reports a saved card or a confirmed leave.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Snackbar } from '../../../components/Snackbar';
import type { PaymentInformationProps } from '../components/PaymentInformationForm';
import { makeTestStore, renderAt } from '../../../testing';
import { PaymentDetailsSetupPage } from './PaymentDetailsSetupPage';

vi.mock('../components/PaymentInformationForm', () => ({
  PaymentInformationForm: ({ onConfirm, onClose, promoEnabled }: PaymentInformationProps) => (
    <div aria-label="Payment information form" data-promo={String(promoEnabled)}>
      <button type="button" onClick={() => onConfirm({ kind: 'added', paymentMethodId: 'pm_1', last4: '4242' })}>
        Card saved
      </button>
      <button type="button" onClick={onClose}>
        Leave confirmed
      </button>
    </div>
  ),
}));
vi.mock('../../../lib/stripe', () => ({ StripeElements: ({ children }: { children: React.ReactNode }) => children }));

function open() {
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/payment-details-setup', element: <PaymentDetailsSetupPage /> },
      {
        path: '/dashboard/home',
        element: (
          <>
            <p>Home screen</p>
            <Snackbar />
          </>
        ),
      },
    ],
    '/payment-details-setup',
  );
  return { ...view, store };
}

describe('payment details setup', () => {
  it('offers promo codes', () => {
    open();
    expect(screen.getByLabelText('Payment information form')).toHaveAttribute('data-promo', 'true');
  });

  it('says the card was added and goes home once the card is saved', async () => {
    const { router, store } = open();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Card saved' }));
    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/dashboard/home');
    expect(store.getState().snackbar).toMatchObject({ message: 'Card was added', type: 'info', isShown: true });
    expect(screen.getByText('Card was added')).toBeInTheDocument();
  });

  it('Skip for now goes home without a card and without a message', async () => {
    const { router, store } = open();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Skip for now' }));
    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/dashboard/home');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(store.getState().snackbar.isShown).toBe(false);
  });

  it('leaving the form goes home too', async () => {
    const { router } = open();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Leave confirmed' }));
    await screen.findByText('Home screen');
    expect(router.state.location.pathname).toBe('/dashboard/home');
  });
});
