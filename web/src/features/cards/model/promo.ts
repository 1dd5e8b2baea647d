//! The promo code input (spec §2, §5): shown as 'AAA AAAA' (any letter or digit, upper case),
//! Apply enabled once the 7 characters of a code are typed; sent upper case without the space.
//!
//! The spec writes the mask as three, space, three, which holds only six characters; the codes
//! are 7 characters (spec §9, and the referrals service), so the last group takes four
//! (docs/decisions.md).
export const PROMO_CODE_LENGTH = 7;
export const PROMO_MASK = 'AAA AAAA';

/** The code inside a typed value: letters and digits only, upper case, at most 7. */
export function promoCode(value: string): string {
  return value
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, PROMO_CODE_LENGTH);
}

/** The value shown in the field: the code with a space after its first three characters. */
export function maskPromo(value: string): string {
  const code = promoCode(value);
  return code.length > 3 ? `${code.slice(0, 3)} ${code.slice(3)}` : code;
}

/** Apply is enabled only when the value has no unfilled place left. */
export function isPromoComplete(value: string): boolean {
  return promoCode(value).length === PROMO_CODE_LENGTH;
}
