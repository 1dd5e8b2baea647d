// The transaction-info list: every money movement the payments service reports (wallet creation,
// top-up, auto top-up, promo credit, purchase, refund, authorisation, a declined charge), each with
// a clear label, its card or 'Wallet', and its amount; a purchase opens its own page.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../../../testing';
import { TransactionInfoPage } from './TransactionInfoPage';

afterEach(() => vi.unstubAllGlobals());

const visa = { brand: 'visa', last4: '4242' };
const movement = (id: string, kind: string, amount: number, more: Record<string, unknown> = {}) => ({
  id,
  kind,
  status: 'completed',
  amount,
  created_at: '2026-11-20T10:30:00Z',
  description: '',
  card: null,
  transaction_id: null,
  decline_message: null,
  ...more,
});

const MOVEMENTS = [
  movement('m8', 'auto_top_up', 1000, {
    status: 'declined',
    card: { brand: 'visa', last4: '0341' },
    description: 'Auto top-up',
    decline_message: 'Your card has insufficient funds.',
  }),
  movement('m7', 'purchase', -704, { description: 'Storage extension by 3 months', transaction_id: 't1' }),
  movement('m6', 'refund', 235, { description: 'The folder was deleted.', transaction_id: 't0' }),
  movement('m5', 'promo', 500, { description: 'Promo code ABC123' }),
  movement('m4', 'transfer', 1000, { card: visa, description: 'Transfer from your card for a purchase' }),
  movement('m3', 'top_up', 1000, { card: visa, description: 'CreditCard Wallet topped up' }),
  movement('m2', 'wallet_created', 2500, { card: visa, description: 'CreditCard Wallet created' }),
  movement('m1', 'authorisation', 50, { card: visa, description: 'First card authorisation' }),
];

/** The rendered rows, in order; a missing one fails the test. */
function rows(count: number) {
  const found = screen.getAllByTestId('movement').map((row) => ({
    row,
    kind: row.dataset.kind,
    text: row.textContent ?? '',
    method: within(row).getByTestId('movement-method').textContent,
  }));
  expect(found).toHaveLength(count);
  return Array.from({ length: count }, (_, i) => {
    const row = found[i];
    if (!row) throw new Error(`no row ${i}`);
    return row;
  });
}

describe('transaction info list', () => {
  it('lists every money movement with a label, its card or the wallet, and a signed amount', async () => {
    serve({ 'GET payments/transactions/': { transactions: [], movements: MOVEMENTS } });
    renderAt(makeTestStore(), [{ path: '/transaction-info', element: <TransactionInfoPage /> }], '/transaction-info');
    await screen.findAllByTestId('movement');
    const [declined, purchase, refund, promo, transfer, topUp, created, authorisation] = rows(8);
    if (!declined || !purchase || !refund || !promo || !transfer || !topUp || !created || !authorisation) throw new Error('rows');

    expect(declined.text).toContain('Declined: Auto top-up');
    expect(declined.method).toBe('Visa **** 0341');
    expect(declined.text).toContain('Your card has insufficient funds.');
    expect(declined.text).toContain('$10.00');
    expect(declined.text).not.toContain('+$10.00');

    expect(purchase.text).toContain('Purchase');
    expect(purchase.text).toContain('Storage extension by 3 months');
    expect(purchase.method).toBe('Wallet');
    expect(purchase.text).toContain('-$7.04');

    expect(refund.text).toContain('Refund');
    expect(refund.method).toBe('Wallet');
    expect(refund.text).toContain('+$2.35');

    expect(promo.text).toContain('Promo code credit');
    expect(promo.method).toBe('Wallet');
    expect(promo.text).toContain('+$5.00');

    expect(transfer.text).toContain('Transfer from card for a purchase');
    expect(topUp.text).toContain('CreditCard Wallet top-up');
    expect(topUp.method).toBe('Visa **** 4242');
    expect(created.text).toContain('CreditCard Wallet created');
    expect(created.text).toContain('+$25.00');
    expect(authorisation.text).toContain('Card authorisation');
    expect(authorisation.text).toContain('+$0.50');
    expect(authorisation.text).toContain('Nov 20, 2026');
  });

  it('opens a purchase on its own page; other movements are not links', async () => {
    serve({
      'GET payments/transactions/': { transactions: [], movements: MOVEMENTS },
    });
    const { router } = renderAt(
      makeTestStore(),
      [{ path: '/transaction-info', element: <TransactionInfoPage /> }],
      '/transaction-info',
    );
    await screen.findAllByTestId('movement');
    const [declined, purchase, , , transfer] = rows(8);
    if (!declined || !purchase || !transfer) throw new Error('rows');
    expect(within(declined.row).queryByRole('link')).toBeNull();
    expect(within(transfer.row).queryByRole('link')).toBeNull();
    fireEvent.click(within(purchase.row).getByRole('link'));
    expect(router.state.location.search).toBe('?id=t1');
  });

  it('says when there is nothing yet', async () => {
    serve({ 'GET payments/transactions/': { transactions: [], movements: [] } });
    renderAt(makeTestStore(), [{ path: '/transaction-info', element: <TransactionInfoPage /> }], '/transaction-info');
    expect(await screen.findByText('No transactions yet.')).toBeInTheDocument();
  });
});

describe('one transaction', () => {
  const transaction = (more: Record<string, unknown> = {}) => ({
    id: 't0',
    transaction_number: 'EVD-2026-000042',
    kind: 'storage_extension',
    description: 'Storage extension by 1 month',
    folder_id: 'f1',
    months: 1,
    price: 200,
    service_fee: 0,
    processing_fee: 0,
    wallet_saving: 0,
    total: 235,
    paid_from_wallet: 235,
    charged_to_card: 0,
    storage_expires_at: '2027-12-28T10:30:00Z',
    created_at: '2026-11-28T02:29:00Z',
    ...more,
  });

  const open = () =>
    renderAt(makeTestStore(), [{ path: '/transaction-info', element: <TransactionInfoPage /> }], '/transaction-info?id=t0');

  it('shows the storage date a purchase set, and no refund', async () => {
    serve({ 'GET payments/transactions/t0/': transaction() });
    open();
    expect(await screen.findByTestId('transaction-storage-date')).toHaveTextContent('Dec 28, 2027');
    expect(screen.queryByTestId('transaction-refunded')).toBeNull();
  });

  it('says a refunded purchase went back to the wallet, and not the date it did not buy', async () => {
    serve({ 'GET payments/transactions/t0/': transaction({ refunded_at: '2026-11-28T02:29:30Z' }) });
    open();
    expect(await screen.findByText('Refunded to the wallet')).toBeInTheDocument();
    expect(screen.getByTestId('transaction-refunded')).toHaveTextContent('Nov 28, 2026');
    expect(screen.queryByTestId('transaction-storage-date')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the folder' })).toBeInTheDocument();
  });
});
