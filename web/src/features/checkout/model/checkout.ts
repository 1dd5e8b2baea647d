//! Checkout's rules as plain functions: what is bought (from the address), the price breakdown's
//! rows by way of payment, where a paid purchase leads, and which answer is a card decline.
import { formatMoney } from '../../../lib/format/money';
import type { Breakdown, Transaction } from '../../../lib/api/payments';

export type PayWith = 'wallet' | 'card';

/** More storage time for a folder. */
export interface StoragePurchase {
  kind: 'storage_extension';
  folderId: string;
  months: number;
}

/**
 * Copies of a folder's files for recipients: what, which copy and to whom is the sharing draft
 * (`lib/sharing/draft`), put together on the share screens; the address names the folder.
 */
export interface SharingPurchase {
  kind: 'sharing';
  folderId: string;
}

/** What checkout sells. */
export type Purchase = StoragePurchase | SharingPurchase;

export const CHECKOUT = '/checkout';
export const EXTEND_STORAGE_SUCCESS = '/extend-storage-success';
export const PAYMENT_SUCCESS = '/payment-success';
export const SHARE_SUCCESS = '/share-success';

const q = encodeURIComponent;

export function checkoutUrl(purchase: Purchase): string {
  if (purchase.kind === 'sharing') return `${CHECKOUT}?kind=sharing&folderId=${q(purchase.folderId)}`;
  return `${CHECKOUT}?kind=${purchase.kind}&folderId=${q(purchase.folderId)}&months=${purchase.months}`;
}

export const extendStorageUrl = (folderId: string) => `/extend-storage-date/${q(folderId)}`;
export const recipientsUrl = (folderId: string) => `/who-you-want-to-share/${q(folderId)}`;
export const shareFilesUrl = (folderId: string) => `/share-files/${q(folderId)}`;
export const folderViewUrl = (folderId: string) => `/folder-view?folderId=${q(folderId)}`;
export const transactionUrl = (id: string) => `/transaction-info?id=${q(id)}`;

/** The purchase of a checkout address, or null when it names none. */
export function parsePurchase(params: URLSearchParams): Purchase | null {
  const folderId = params.get('folderId');
  if (!folderId) return null;
  if (params.get('kind') === 'sharing') return { kind: 'sharing', folderId };
  const months = Number(params.get('months'));
  if (params.get('kind') !== 'storage_extension' || !Number.isInteger(months) || months < 1) return null;
  return { kind: 'storage_extension', folderId, months };
}

/** A paid share shows its recipients and their transaction numbers. */
export function shareSuccessPath(folderId: string, shareId: string, transactionId: string): string {
  return `${SHARE_SUCCESS}?folderId=${q(folderId)}&shareId=${q(shareId)}&transactionId=${q(transactionId)}`;
}

/** A paid storage extension shows the new date; any other purchase the payment success screen. */
export function successPath(transaction: Pick<Transaction, 'id' | 'kind' | 'folderId'>): string {
  if (transaction.kind === 'storage_extension' && transaction.folderId) {
    return `${EXTEND_STORAGE_SUCCESS}?transactionId=${q(transaction.id)}&folderId=${q(transaction.folderId)}`;
  }
  return `${PAYMENT_SUCCESS}?transactionId=${q(transaction.id)}`;
}

/** stored-account/pay's 402 'card_declined': a needed card charge was declined. */
export function isDeclined(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { status?: unknown; data?: { errors?: { code?: string }[] } };
  return e.status === 402 && (e.data?.errors ?? []).some((item) => item?.code === 'card_declined');
}

export interface BreakdownRow {
  label: string;
  /** Cents; a saving is negative. */
  amount: number;
  total?: boolean;
}

/**
 * The rows of a breakdown paid by card (price, service fee, processing fee, total) or from the
 * wallet (no processing fee, the wallet saving taken off, the wallet total).
 */
export function breakdownRows(b: Breakdown, via: PayWith): BreakdownRow[] {
  return [
    { label: 'Price', amount: b.price },
    { label: 'Service fee', amount: b.serviceFee },
    { label: 'Processing fee', amount: via === 'card' ? b.processingFee : 0 },
    { label: 'Wallet saving', amount: via === 'wallet' ? -b.walletSaving : 0 },
    { label: 'Total', amount: via === 'card' ? b.total : b.walletTotal, total: true },
  ];
}

/**
 * What paying from the wallet saves on this purchase, in the spec's words ('saving on service
 * fees', §9) with the price answer's amount: 'saves $0.20 on service fees'; nothing without one.
 */
export function walletSavingLabel(b: Pick<Breakdown, 'walletSaving'>): string | null {
  return b.walletSaving > 0 ? `saves ${formatMoney(b.walletSaving)} on service fees` : null;
}

export const totalOf = (b: Breakdown, via: PayWith) => (via === 'card' ? b.total : b.walletTotal);

/** How a transaction was paid: from the wallet when the wallet paid it (the card may have topped it up). */
export const transactionVia = (t: Pick<Transaction, 'paidFromWallet'>): PayWith => (t.paidFromWallet > 0 ? 'wallet' : 'card');

/**
 * A transaction's rows as charged: its breakdown by the way it was paid (from the wallet: no
 * processing fee, the saving taken off), ending at the total it cost.
 */
export function transactionRows(
  t: Pick<Transaction, 'price' | 'serviceFee' | 'processingFee' | 'walletSaving' | 'total' | 'paidFromWallet'>,
): BreakdownRow[] {
  const via = transactionVia(t);
  const rows = breakdownRows({ ...t, walletTotal: t.total, currency: 'usd' }, via);
  return rows.map((row) => (row.total ? { ...row, amount: t.total } : row));
}
