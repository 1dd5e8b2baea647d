import { describe, expect, it } from 'vitest';
import { formatPostal, matchesPostal, postalPatternFor } from './postal';

// spec §5 Postal patterns
describe('the postal patterns', () => {
  it('maps Canada, by name or code in any case, to the alphanumeric pattern and other countries to none', () => {
    expect(postalPatternFor('Canada')).toBe('xxx xxx');
    expect(postalPatternFor(' canada ')).toBe('xxx xxx');
    expect(postalPatternFor('CA')).toBe('xxx xxx');
    expect(postalPatternFor('India')).toBeUndefined();
    expect(postalPatternFor('Sweden')).toBeUndefined();
    expect(postalPatternFor('United States of America')).toBeUndefined();
    expect(postalPatternFor('')).toBeUndefined();
  });

  it('formats as typed: upper case, the space once a character follows it, nothing past the end', () => {
    expect(formatPostal('xxx xxx', 'k').value).toBe('K');
    expect(formatPostal('xxx xxx', 'k1a').value).toBe('K1A');
    expect(formatPostal('xxx xxx', 'k1a0').value).toBe('K1A 0');
    expect(formatPostal('xxx xxx', 'k1a0b1').value).toBe('K1A 0B1');
    expect(formatPostal('xxx xxx', 'K1A 0B1').value).toBe('K1A 0B1');
    expect(formatPostal('xxx xxx', 'K1A 0B12').value).toBe('K1A 0B1');
    expect(formatPostal('xxx xxx', 'K1A ').value).toBe('K1A');
  });

  it('drops what fits no slot: punctuation anywhere, letters where digits go', () => {
    expect(formatPostal('xxx xxx', 'k1-a#0b.1').value).toBe('K1A 0B1');
    expect(formatPostal('ddd ddd', '12a3456').value).toBe('123 456');
    expect(formatPostal('ddd ddd', 'abc').value).toBe('');
    expect(formatPostal('dd dd', '1234').value).toBe('12 34');
    expect(formatPostal('dd dd', '12 3').value).toBe('12 3');
  });

  it('keeps the caret after the same typed characters', () => {
    // 'K1A0' typed at the end: the space comes in before the 0, the caret stays at the end.
    expect(formatPostal('xxx xxx', 'K1A0', 4)).toEqual({ value: 'K1A 0', caret: 5 });
    // A 'b' typed after '0' in 'K1A 01': the caret follows the B.
    expect(formatPostal('xxx xxx', 'K1A 0b1', 6)).toEqual({ value: 'K1A 0B1', caret: 6 });
    // A dropped character leaves the caret where it was.
    expect(formatPostal('ddd ddd', '12x', 3)).toEqual({ value: '12', caret: 2 });
  });

  it('matches only a complete zip code in the pattern', () => {
    expect(matchesPostal('xxx xxx', 'K1A 0B1')).toBe(true);
    expect(matchesPostal('xxx xxx', 'K1A 0B')).toBe(false);
    expect(matchesPostal('xxx xxx', 'K1A0B1')).toBe(false);
    expect(matchesPostal('xxx xxx', 'k1a 0b1')).toBe(false);
    expect(matchesPostal('ddd ddd', '123 456')).toBe(true);
    expect(matchesPostal('ddd ddd', '12A 456')).toBe(false);
    expect(matchesPostal('dd dd', '12 34')).toBe(true);
    expect(matchesPostal('dd dd', '1234')).toBe(false);
  });
});
