import { describe, expect, it } from 'vitest';
import { brandIcon, cardCaption, cardTitle } from './cards';

describe('card captions (spec §2)', () => {
  it('tells what the card is used for', () => {
    expect(cardCaption({ defaultMethod: true, wallet: true })).toBe('Used for payments with Credit Card and CreditCard Wallet');
    expect(cardCaption({ defaultMethod: true, wallet: false })).toBe('For payments with Credit Card');
    expect(cardCaption({ defaultMethod: false, wallet: true })).toBe('For payments with CreditCard Wallet');
    expect(cardCaption({ defaultMethod: false, wallet: false })).toBeNull();
  });
});

describe('brands', () => {
  it('maps Stripe brand names to the icons, anything else to unknown', () => {
    expect(brandIcon('visa')).toBe('visa');
    expect(brandIcon('American Express')).toBe('amex');
    expect(brandIcon('diners')).toBe('diners');
    expect(brandIcon('unionpay')).toBe('unionpay');
    expect(brandIcon('eftpos_au')).toBe('unknown');
    expect(brandIcon('error')).toBe('unknown');
    expect(brandIcon(undefined)).toBe('unknown');
  });

  it('titles a card with its brand and masked digits', () => {
    expect(cardTitle({ brand: 'visa', last4: '4242' })).toBe('Visa **** 4242');
    expect(cardTitle({ brand: 'mystery', last4: '0000' })).toBe('Card **** 0000');
  });
});
