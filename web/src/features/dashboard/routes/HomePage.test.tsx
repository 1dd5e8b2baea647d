// Home's wallet line: the balance of an existing wallet, the way to create one before that (the
// first card's authorisation credit is not a wallet balance).
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { answer, apiStoredAccount, makeTestStore, NO_WALLET, renderAt, serve } from '../../../testing';
import { HomePage } from './HomePage';

afterEach(() => vi.unstubAllGlobals());

function renderHome(account: unknown) {
  serve({
    'GET accounts/me/': { username: 'ann', email: 'ann@example.com', credit_card_wallet_balance: 50 },
    'GET payments/stored-account/get/': account,
  });
  renderAt(makeTestStore(), [{ path: '/dashboard/home', element: <HomePage /> }], '/dashboard/home');
}

describe('home', () => {
  it('shows no balance before a wallet exists, only the way to create one', async () => {
    renderHome({ ...NO_WALLET, balance: 50 });
    expect(await screen.findByRole('link', { name: 'Create CreditCard Wallet' })).toHaveAttribute('href', '/stored-account');
    expect(screen.queryByTestId('home-wallet-balance')).toBeNull();
    expect(screen.queryByText('$0.50')).toBeNull();
  });

  it("shows the wallet's balance once it exists", async () => {
    renderHome(apiStoredAccount({ balance: 2550 }));
    expect(await screen.findByTestId('home-wallet-balance')).toHaveTextContent('$25.50');
    expect(screen.queryByRole('link', { name: 'Create CreditCard Wallet' })).toBeNull();
  });

  it('says when the account could not be loaded and tries again on request', async () => {
    let failing = true;
    serve({
      'GET accounts/me/': () =>
        failing ? answer(500, { errors: [{ message: 'boom', code: 'internal' }] }) : { username: 'ann', email: 'ann@example.com' },
      'GET payments/stored-account/get/': NO_WALLET,
    });
    renderAt(makeTestStore(), [{ path: '/dashboard/home', element: <HomePage /> }], '/dashboard/home');
    expect(await screen.findByText('Your account details could not be loaded.')).toBeVisible();
    failing = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('username')).toHaveTextContent('ann');
    expect(screen.queryByText('Your account details could not be loaded.')).toBeNull();
  });
});
