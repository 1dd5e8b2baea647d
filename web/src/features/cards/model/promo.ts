//! The promo code input (spec §2, §3, §5): masked 'AAA AAA' (any letter or digit, shown upper
//! case), 7 characters with the space; Apply is enabled once no place of the mask is unfilled;
//! the code is sent upper case without the space (the referrals service stores it so).
export const PROMO_MASK = 'AAA AAA';
/** The length of the masked value (spec §9 "Promo code length 7"). */
export const PROMO_VALUE_LENGTH = PROMO_MASK.length;
const CODE_LENGTH = PROMO_MASK.replace(/ /g, '').length;

/** The code inside a typed value: letters and digits only, upper case, at most the mask holds. */
export function promoCode(value: string): string {
  return value
    .replace(/[^A-Za-z0-9]/g, '')
    .toUpperCase()
    .slice(0, CODE_LENGTH);
}

/** The value shown in the field: the code with a space after its first three characters. */
export function maskPromo(value: string): string {
  const code = promoCode(value);
  return code.length > 3 ? `${code.slice(0, 3)} ${code.slice(3)}` : code;
}

/** Apply is enabled only when the value is 7 characters with no unfilled placeholder. */
export function isPromoComplete(value: string): boolean {
  return maskPromo(value).length === PROMO_VALUE_LENGTH;
}
