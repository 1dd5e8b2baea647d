// Spec §2, §4 "Failed-payment dialog": open when the dialog name is the failed-payment value;
// 'Change Card' goes to the payment methods on /checkout without closing, elsewhere it closes.
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DIALOG, dialogOpened } from '../../../lib/ui/uiSlice';
import { changeCardAction, FailedPaymentDialog } from './FailedPaymentDialog';
import { makeTestStore, renderAt } from '../../../testing';

function setup(path: string) {
  const store = makeTestStore();
  const view = renderAt(
    store,
    [
      { path: '/checkout', element: <FailedPaymentDialog /> },
      { path: '/stored-account', element: <FailedPaymentDialog /> },
      { path: '/payment-methods', element: <p>Payment methods</p> },
    ],
    path,
  );
  return { store, ...view };
}

describe('failed-payment dialog', () => {
  it('is closed until the dialog name is the failed-payment value', () => {
    const { store } = setup('/stored-account');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => {
      store.dispatch(dialogOpened(DIALOG.insufficientFunds));
    });
    expect(screen.queryByText('Your Card was declined')).not.toBeInTheDocument();
    act(() => {
      store.dispatch(dialogOpened(DIALOG.failedPayment));
    });
    expect(screen.getByRole('dialog')).toHaveTextContent('Your Card was declined');
    expect(screen.getByText('We were unable to process your payment. Please change your payment method.')).toBeInTheDocument();
  });

  it("on /checkout 'Change Card' goes to /payment-methods and leaves the dialog open", () => {
    const { store, router } = setup('/checkout');
    act(() => {
      store.dispatch(dialogOpened(DIALOG.failedPayment));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Change Card' }));
    expect(router.state.location.pathname).toBe('/payment-methods');
    expect(store.getState().ui.dialog).toBe(DIALOG.failedPayment);
  });

  it("elsewhere 'Change Card' closes the dialog and stays", () => {
    const { store, router } = setup('/stored-account');
    act(() => {
      store.dispatch(dialogOpened(DIALOG.failedPayment));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Change Card' }));
    expect(router.state.location.pathname).toBe('/stored-account');
    expect(store.getState().ui.dialog).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('cancel closes it', () => {
    const { store } = setup('/checkout');
    act(() => {
      store.dispatch(dialogOpened(DIALOG.failedPayment));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(store.getState().ui.dialog).toBeNull();
  });

  it('the rule by route', () => {
    expect(changeCardAction('/checkout')).toBe('go-to-payment-methods');
    expect(changeCardAction('/stored-account')).toBe('close');
    expect(changeCardAction('/checkout/extra')).toBe('close');
  });
});
