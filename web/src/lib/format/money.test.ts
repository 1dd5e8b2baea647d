// Money on screen: cents as '$12.34' and typed dollars read back as exact cents.
import { describe, expect, it } from 'vitest';
import { dollarsToCents, formatAmountLabel, formatMoney } from './money';

describe('formatMoney', () => {
  it.each([
    [1234, '$12.34'],
    [0, '$0.00'],
    [5, '$0.05'],
    [500, '$5.00'],
    [-105, '-$1.05'],
    [123456789, '$1,234,567.89'],
    [Number.NaN, '$0.00'],
  ])('%d cents reads %s', (cents, text) => expect(formatMoney(cents)).toBe(text));
});

describe('formatAmountLabel', () => {
  it('drops the cents of whole dollars', () => {
    expect(formatAmountLabel(2500)).toBe('$25');
    expect(formatAmountLabel(1250)).toBe('$12.50');
  });
});

describe('dollarsToCents', () => {
  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.05', 1205],
    ['19.99', 1999],
    ['0.1', 10],
    [' 25 ', 2500],
  ])('%s is %d cents', (text, cents) => expect(dollarsToCents(text)).toBe(cents));

  it.each(['', '12.345', '1e3', '-5', '12.', '.5', 'abc', '1,000'])('%s is not an amount', (text) => expect(dollarsToCents(text)).toBeUndefined());
});
