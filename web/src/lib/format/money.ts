//! Money on screen: integer cents shown as dollars ('$12.34'), and dollars typed by the user read
//! back as exact cents (no floating point: 19.99 is 1999 cents, never 1998.9999).

/** '$12.34' from 1234 cents; '-$1.05' from -105; '$0.00' for a non-finite value. */
export function formatMoney(cents: number): string {
  const value = Number.isFinite(cents) ? Math.round(cents) : 0;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** '$25' for whole dollars, '$12.50' otherwise: the preset and amount labels. */
export function formatAmountLabel(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : formatMoney(cents);
}

/** Exact cents from a decimal text with up to 2 places ('12', '12.5', '12.05'); undefined otherwise. */
export function dollarsToCents(text: string): number | undefined {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  const cents = whole * 100 + fraction;
  return Number.isSafeInteger(cents) ? cents : undefined;
}
