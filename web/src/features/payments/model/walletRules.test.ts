// Spec §5 "Wallet amount" (each message word for word) and "Wallet forms" (when each mode's button
// is enabled), §2 the three button labels.
import { describe, expect, it } from 'vitest';
import { acceptsAmountInput, AMOUNT_MESSAGES, amountInput, amountError, canSubmit, SUBMIT_LABEL, type WalletFormState } from './walletRules';

describe('custom wallet amount (spec §5 "Wallet amount")', () => {
  it.each(['10', '10.00', '25', '55.5', '99.99', '100', '100.00'])('%s is accepted', (text) => expect(amountError(text)).toBeUndefined());

  it("under $10: 'The amount should be more then 10$'", () => {
    expect(amountError('9.99')).toBe('The amount should be more then 10$');
    expect(amountError('0')).toBe('The amount should be more then 10$');
  });

  it("over $100: 'The amount should be less then 100$'", () => {
    expect(amountError('100.01')).toBe('The amount should be less then 100$');
    expect(amountError('1000')).toBe('The amount should be less then 100$');
  });

  it('a decimal with up to 2 places', () => {
    expect(amountError('12.345')).toBe(AMOUNT_MESSAGES.decimal);
    expect(amountError('12,5')).toBe(AMOUNT_MESSAGES.decimal);
    expect(amountError('ten')).toBe(AMOUNT_MESSAGES.decimal);
  });

  it('is required', () => expect(amountError('  ')).toBe('This field is required'));

  it('cannot be typed past 2 decimals', () => {
    expect(acceptsAmountInput('12.3')).toBe(true);
    expect(acceptsAmountInput('12.34')).toBe(true);
    expect(acceptsAmountInput('12.345')).toBe(false);
    expect(acceptsAmountInput('1a')).toBe(false);
    expect(acceptsAmountInput('')).toBe(true);
    // A decimal comma is the dot it means: '25,50' is $25.50, not 2550.
    expect(amountInput('25,50')).toBe('25.50');
    expect(acceptsAmountInput(amountInput('25,50'))).toBe(true);
    expect(acceptsAmountInput(amountInput('1,2,3'))).toBe(false);
  });
});

describe('the wallet form button (spec §5 "Wallet forms")', () => {
  const full: WalletFormState = { cardId: 'pm_1', amount: 2500, authorisations: [true, true] };

  it.each(['create', 'edit'] as const)('%s needs a card, an amount and both authorisations', (mode) => {
    expect(canSubmit(mode, full)).toBe(true);
    expect(canSubmit(mode, { ...full, cardId: null })).toBe(false);
    expect(canSubmit(mode, { ...full, amount: null })).toBe(false);
    expect(canSubmit(mode, { ...full, authorisations: [true, false] })).toBe(false);
    expect(canSubmit(mode, { ...full, authorisations: [false, true] })).toBe(false);
  });

  it('top-up needs only a card and an amount', () => {
    expect(canSubmit('top-up', { ...full, authorisations: [false, false] })).toBe(true);
    expect(canSubmit('top-up', { ...full, cardId: null })).toBe(false);
    expect(canSubmit('top-up', { ...full, amount: null })).toBe(false);
  });

  it('an amount outside $10..$100 never submits', () => {
    expect(canSubmit('top-up', { ...full, amount: 999 })).toBe(false);
    expect(canSubmit('top-up', { ...full, amount: 10001 })).toBe(false);
  });

  it('reads the spec labels', () => {
    expect(SUBMIT_LABEL).toEqual({ create: 'Transfer Money and Create CreditCard Wallet', edit: 'Save', 'top-up': 'Top-up' });
  });
});
