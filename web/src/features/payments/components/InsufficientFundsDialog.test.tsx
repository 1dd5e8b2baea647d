// Spec §2, §7 "Handling of answers", §8 "Insufficient funds": a stored-account answer with a
// topUpError opens the dialog on /stored-account and /checkout only.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIALOG } from '../../../lib/ui/uiSlice';
import { InsufficientFundsDialog, showsInsufficientFunds } from './InsufficientFundsDialog';
import { apiStoredAccount, makeTestStore, renderAt, serve } from '../../../testing';

afterEach(() => vi.unstubAllGlobals());

const FAILED = apiStoredAccount({ last4: '0341', top_up_error: 'Your card has insufficient funds.' });

function setup(path: string, account: unknown = FAILED) {
  const calls = serve({ 'GET payments/stored-account/get/': account });
  const store = makeTestStore();
  const routes = ['/stored-account', '/checkout', '/dashboard/home', '/extend-storage-date/f1'].map((p) => ({ path: p, element: <InsufficientFundsDialog /> }));
  return { calls, store, ...renderAt(store, routes, path) };
}

describe('insufficient-funds dialog', () => {
  it.each(['/stored-account', '/checkout'])('opens on %s with the card that failed', async (path) => {
    const { store } = setup(path);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Insufficient Funds on your credit card');
    expect(dialog).toHaveTextContent('Your credit card ending in 0341 has insufficient funds to AutoLoad your CreditCard Wallet. You can change the payment card.');
    expect(store.getState().ui.dialog).toBe(DIALOG.insufficientFunds);
  });

  it.each(['/dashboard/home', '/extend-storage-date/f1'])('never shows on %s (nor asks)', async (path) => {
    const { calls, store } = setup(path);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
    expect(store.getState().ui.dialog).toBeNull();
  });

  it('stays closed when the last auto top-up did not fail', async () => {
    const { calls } = setup('/stored-account', apiStoredAccount());
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("'Change Payment Method' opens the top-up stored account dialog", async () => {
    const { store } = setup('/checkout');
    fireEvent.click(await screen.findByRole('button', { name: 'Change Payment Method' }));
    expect(store.getState().ui.dialog).toBe(DIALOG.topUpStoredAccount);
    expect(screen.queryByText('Insufficient Funds on your credit card')).not.toBeInTheDocument();
  });

  it("'Back' closes it for good on this screen", async () => {
    const { store } = setup('/stored-account');
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(store.getState().ui.dialog).toBeNull();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('the routes', () => {
    expect(showsInsufficientFunds('/stored-account')).toBe(true);
    expect(showsInsufficientFunds('/checkout')).toBe(true);
    expect(showsInsufficientFunds('/payment-methods')).toBe(false);
    expect(showsInsufficientFunds('/wallet-congratulations')).toBe(false);
  });
});
