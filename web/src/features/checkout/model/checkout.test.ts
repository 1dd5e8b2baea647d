// Checkout's rules: the purchase in the address, the breakdown rows by way of payment, where a
// paid purchase leads, the 402 decline.
import { describe, expect, it } from 'vitest';
import { breakdownRows, checkoutUrl, isDeclined, parsePurchase, successPath, totalOf, transactionRows, walletSavingLabel } from './checkout';

const breakdown = { price: 1000, serviceFee: 200, processingFee: 65, walletSaving: 20, total: 1265, walletTotal: 1180, currency: 'usd' };

describe('checkout model', () => {
  it('reads the purchase back from its address', () => {
    const url = checkoutUrl({ kind: 'storage_extension', folderId: 'f 1', months: 3 });
    expect(url).toBe('/checkout?kind=storage_extension&folderId=f%201&months=3');
    expect(parsePurchase(new URL(url, 'http://x').searchParams)).toEqual({ kind: 'storage_extension', folderId: 'f 1', months: 3 });
  });

  it('reads a share back from its address: the folder (the rest is the sharing draft)', () => {
    const url = checkoutUrl({ kind: 'sharing', folderId: 'f 1' });
    expect(url).toBe('/checkout?kind=sharing&folderId=f%201');
    expect(parsePurchase(new URL(url, 'http://x').searchParams)).toEqual({ kind: 'sharing', folderId: 'f 1' });
  });

  it.each(['kind=storage_extension&months=3', 'kind=storage_extension&folderId=f&months=0', 'kind=sharing', 'kind=gift&folderId=f&months=3', 'kind=storage_extension&folderId=f&months=1.5'])(
    '%s names no purchase',
    (query) => expect(parsePurchase(new URLSearchParams(query))).toBeNull(),
  );

  it('by card: price, service fee, processing fee, total', () => {
    expect(breakdownRows(breakdown, 'card').map((r) => [r.label, r.amount])).toEqual([
      ['Price', 1000],
      ['Service fee', 200],
      ['Processing fee', 65],
      ['Wallet saving', 0],
      ['Total', 1265],
    ]);
    expect(totalOf(breakdown, 'card')).toBe(1265);
  });

  it('from the wallet: no processing fee, the saving taken off, the wallet total', () => {
    const rows = breakdownRows(breakdown, 'wallet');
    expect(rows.map((r) => [r.label, r.amount])).toEqual([
      ['Price', 1000],
      ['Service fee', 200],
      ['Processing fee', 0],
      ['Wallet saving', -20],
      ['Total', 1180],
    ]);
    // The rows add up to the total.
    expect(rows.filter((r) => !r.total).reduce((sum, r) => sum + r.amount, 0)).toBe(1180);
    expect(totalOf(breakdown, 'wallet')).toBe(1180);
  });

  it('the wallet option states the saving of this purchase in dollars, not a percentage', () => {
    expect(walletSavingLabel({ walletSaving: 12 })).toBe('saves $0.12 on service fees');
    expect(walletSavingLabel(breakdown)).toBe('saves $0.20 on service fees');
    expect(walletSavingLabel({ walletSaving: 0 })).toBeNull();
  });

  it("a transaction's rows are what it charged: from the wallet without the processing fee", () => {
    const paid = { price: 1000, serviceFee: 200, processingFee: 65, walletSaving: 20, total: 1180, paidFromWallet: 1180 };
    expect(transactionRows(paid).map((r) => r.amount)).toEqual([1000, 200, 0, -20, 1180]);
    const byCard = { ...paid, total: 1265, paidFromWallet: 0 };
    expect(transactionRows(byCard).map((r) => r.amount)).toEqual([1000, 200, 65, 0, 1265]);
  });

  it('a storage extension leads to its success screen, anything else to the payment success', () => {
    expect(successPath({ id: 't1', kind: 'storage_extension', folderId: 'f1' })).toBe('/extend-storage-success?transactionId=t1&folderId=f1');
    expect(successPath({ id: 't2', kind: 'sharing', folderId: null })).toBe('/payment-success?transactionId=t2');
  });

  it('a 402 card_declined is a decline; other answers are not', () => {
    expect(isDeclined({ status: 402, data: { errors: [{ message: 'Your card was declined.', code: 'card_declined' }] } })).toBe(true);
    expect(isDeclined({ status: 400, data: { errors: [{ message: 'x', code: 'card_declined' }] } })).toBe(false);
    expect(isDeclined({ status: 402, data: { errors: [{ message: 'x', code: 'other' }] } })).toBe(false);
    expect(isDeclined({ status: 'FETCH_ERROR', error: 'offline' })).toBe(false);
    expect(isDeclined(undefined)).toBe(false);
  });
});
