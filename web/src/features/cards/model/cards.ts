//! Saved cards as the payment-method list shows them (spec §2 "Payment-method list").
import type { Card } from '../../../lib/api/payments';

export const CAPTIONS = {
  both: 'Used for payments with Credit Card and CreditCard Wallet',
  default: 'For payments with Credit Card',
  wallet: 'For payments with CreditCard Wallet',
} as const;

/** The caption under a card: by whether it is the default payment method and/or the wallet card. */
export function cardCaption(card: Pick<Card, 'defaultMethod' | 'wallet'>): string | null {
  if (card.defaultMethod && card.wallet) return CAPTIONS.both;
  if (card.defaultMethod) return CAPTIONS.default;
  if (card.wallet) return CAPTIONS.wallet;
  return null;
}

/** The 11 icons of spec §3: nine brands, generic unknown, and error. */
export const BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'maestro', 'unionpay', 'union', 'unknown', 'error'] as const;
export type BrandIconName = (typeof BRANDS)[number];


/** The icon of a brand as Stripe or the backend names it; anything else is unknown. */
export function brandIcon(brand: string | null | undefined): BrandIconName {
  const key = (brand ?? '').toLowerCase().replace(/[\s-]/g, '_');
  if (key === 'american_express') return 'amex';
  if (key === 'diners_club') return 'diners';
  return (BRANDS as readonly string[]).includes(key) && key !== 'error' ? (key as BrandIconName) : 'unknown';
}

// A card's title in the list and the action sheet is the app's one title (brand, masked digits).
export { brandName, cardTitle } from '../../payments';
