//! A saved card's title wherever the app names one: the brand and the masked digits in the one
//! mask of the spec ('Card ****{last4} already exist.', spec §8), 'Visa **** 4242'.
import type { Card } from '../../../lib/api/payments';

/** The mask in front of a card's last four digits, as spec §8 writes it. */
export const CARD_MASK = '****';

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  american_express: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  diners_club: 'Diners Club',
  jcb: 'JCB',
  maestro: 'Maestro',
  unionpay: 'UnionPay',
  union: 'Union',
};

/** A brand as Stripe or the backend names it, for people; 'Card' when unknown. */
export function brandName(brand: string | null | undefined): string {
  return BRAND_NAMES[(brand ?? '').toLowerCase().replace(/[\s-]/g, '_')] ?? 'Card';
}

/** 'Visa **** 4242'. */
export function cardTitle(card: Pick<Card, 'brand' | 'last4'>): string {
  return `${brandName(card.brand)} ${CARD_MASK} ${card.last4}`;
}
