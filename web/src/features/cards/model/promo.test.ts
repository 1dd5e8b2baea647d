import { describe, expect, it } from 'vitest';
import { isPromoComplete, maskPromo, promoCode } from './promo';

describe('the promo code mask (AAA AAA)', () => {
  it('upper-cases, drops anything but letters and digits, and spaces after three', () => {
    expect(maskPromo('a')).toBe('A');
    expect(maskPromo('abc')).toBe('ABC');
    expect(maskPromo('abc1')).toBe('ABC 1');
    expect(maskPromo('ab-c 12!3')).toBe('ABC 123');
    expect(maskPromo('abc12345')).toBe('ABC 123');
  });

  it('enables Apply only when the 7 characters are filled', () => {
    expect(isPromoComplete('')).toBe(false);
    expect(isPromoComplete('ABC 12')).toBe(false);
    expect(isPromoComplete('ABC 123')).toBe(true);
    expect(isPromoComplete('abc123')).toBe(true);
  });

  it('sends the code upper case without the space', () => {
    expect(promoCode('abc 123')).toBe('ABC123');
  });
});
