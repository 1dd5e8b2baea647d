// A referral link is /sign-up?referred=true&code=XXXX (spec §2).
import { describe, expect, it } from 'vitest';
import { referralCodeOf } from './referralLink';

describe('a referral link', () => {
  it('carries its code only with referred=true', () => {
    expect(referralCodeOf(new URLSearchParams('referred=true&code=AB2CD3EF'))).toBe('AB2CD3EF');
    expect(referralCodeOf(new URLSearchParams('code=AB2CD3EF'))).toBeNull();
    expect(referralCodeOf(new URLSearchParams('referred=false&code=AB2CD3EF'))).toBeNull();
    expect(referralCodeOf(new URLSearchParams('referred=true&code=%20'))).toBeNull();
    expect(referralCodeOf(new URLSearchParams('referred=true'))).toBeNull();
  });
});
