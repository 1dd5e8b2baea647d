import { describe, expect, it } from 'vitest';
import { isPromoComplete, maskPromo, promoCode } from './promo';

describe('the promo code mask', () => {
  it('upper-cases, drops anything but letters and digits, and spaces after three', () => {
    expect(maskPromo('a')).toBe('A');
    expect(maskPromo('abc')).toBe('ABC');
    expect(maskPromo('abc1')).toBe('ABC 1');
    expect(maskPromo('ab-c 12!34')).toBe('ABC 1234');
    expect(maskPromo('abc12345')).toBe('ABC 1234');
  });

  it('enables Apply only with all 7 characters', () => {
    expect(isPromoComplete('')).toBe(false);
    expect(isPromoComplete('ABC 123')).toBe(false);
    expect(isPromoComplete('ABC 1234')).toBe(true);
    expect(isPromoComplete('abc1234')).toBe(true);
  });

  it('sends the code upper case without the space', () => {
    expect(promoCode('abc 1234')).toBe('ABC1234');
  });
});
