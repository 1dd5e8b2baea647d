//! The transaction-info list: every money movement (wallet creation, top-ups, auto top-ups,
//! transfers for a purchase, promo credits, purchases, refunds, the first card authorisation,
//! referral rewards and their reversals, and declined card charges) named for people, with the
//! card it used or 'Wallet'.
import { cardTitle } from '../../payments';
import { formatMoney } from '../../../lib/format/money';
import type { Movement } from '../../../lib/api/payments';

const LABELS: Record<string, string> = {
  wallet_created: 'CreditCard Wallet created',
  top_up: 'CreditCard Wallet top-up',
  auto_top_up: 'Auto top-up',
  transfer: 'Transfer from card for a purchase',
  promo: 'Promo code credit',
  purchase: 'Purchase',
  refund: 'Refund',
  authorisation: 'Card authorisation',
  referral: 'Referral reward',
  referral_reversal: 'Referral reward reversed',
};

/** 'Auto top-up', or 'Declined: Auto top-up' for a charge the card refused. */
export function movementLabel(m: Pick<Movement, 'kind' | 'status'>): string {
  const label = LABELS[m.kind] ?? 'Payment';
  return m.status === 'declined' ? `Declined: ${label}` : label;
}

/** 'Visa **** 4242' for a card, 'Wallet' when the wallet paid or was credited without a card. */
export function movementMethod(m: Pick<Movement, 'card'>): string {
  return m.card ? cardTitle(m.card) : 'Wallet';
}

/** '+$10.00' into the wallet, '-$7.04' paid out; a declined charge moved nothing, so no sign. */
export function movementAmount(m: Pick<Movement, 'amount' | 'status'>): string {
  if (m.status === 'declined') return formatMoney(Math.abs(m.amount));
  return m.amount > 0 ? `+${formatMoney(m.amount)}` : formatMoney(m.amount);
}
