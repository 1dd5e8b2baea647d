// A recipient's transaction number: typable in any case, normalised to upper case (EVD-7K3Q-9XTM).
import { describe, expect, it } from 'vitest';
import { isTransactionNumber, normaliseTransactionNumber } from './transactionNumber';

describe('transaction numbers', () => {
  it.each([
    ['evd-7k3q-9xtm', 'EVD-7K3Q-9XTM'],
    [' EVD-7K3Q-9XTM ', 'EVD-7K3Q-9XTM'],
    ['evd7k3q9xtm', 'EVD-7K3Q-9XTM'],
    ['EVD 7K3Q 9XTM', 'EVD-7K3Q-9XTM'],
  ])('%s reads as %s', (typed, canonical) => {
    expect(normaliseTransactionNumber(typed)).toBe(canonical);
    expect(isTransactionNumber(normaliseTransactionNumber(typed))).toBe(true);
  });

  it.each(['EVD-2026-000042', 'ABC-7K3Q-9XTM', 'EVD-7K3Q', ''])('%s is not a copy transaction number', (typed) => {
    expect(isTransactionNumber(normaliseTransactionNumber(typed))).toBe(false);
  });
});
