import type { PaymentMethod, SetupIntent, StripeCardNumberElement } from '@stripe/stripe-js';
import { describe, expect, it, vi } from 'vitest';
import type { Card } from '../../../lib/api/payments';
import type { PaymentInformationValues } from '../validation/billing';
import { addCard, billingDetails, type AddCardDeps } from './addCard';

const values: PaymentInformationValues = {
  firstName: 'Ann ',
  lastName: 'Lee',
  fullAddress: '12, 4, Main Street, Illinois, United States, 62701',
  foundAddress: '',
  country: 'United States',
  province: 'Illinois',
  street: 'Main Street',
  house: '12',
  apartmentNumber: '4',
  city: 'Springfield',
  zipCode: '62701',
  useProfileAddress: false,
  setDefault: true,
};

const saved: Card = { id: 'pm_old', brand: 'visa', last4: '1111', fingerprint: 'fp_old', expMonth: 1, expYear: 2030, defaultMethod: true, wallet: false };
const card = {} as StripeCardNumberElement;

/** Every call answering as on a good day, recorded in `order`. */
function deps(overrides: Partial<AddCardDeps> = {}) {
  const order: string[] = [];
  const step =
    <T,>(name: string, value: T) =>
    async (..._args: unknown[]) => {
      order.push(name);
      return value;
    };
  const base: AddCardDeps = {
    updateCustomerName: vi.fn(step('name', {})),
    createPaymentMethod: vi.fn(step('createPaymentMethod', { paymentMethod: { id: 'pm_new', card: { last4: '4242' } } as PaymentMethod })),
    registerPaymentMethod: vi.fn(step('register', { paymentMethodId: 'pm_new', fingerprint: 'fp_new', last4: '4242' })),
    savedCards: vi.fn(step('savedCards', [saved])),
    createStripeCustomer: vi.fn(step('customer', { stripeCustomerId: 'cus_1' })),
    createSetupIntent: vi.fn(step('setupIntent', { clientSecret: 'seti_1_secret_x' })),
    confirmCardSetup: vi.fn(step('confirmCardSetup', { setupIntent: { status: 'succeeded' } as SetupIntent })),
    setDefault: vi.fn(step('setDefault', {})),
    refetchCards: vi.fn(step('refetch', {})),
    markPaymentMethodAdded: vi.fn(() => void order.push('flag')),
    notify: vi.fn(),
  };
  return { d: { ...base, ...overrides }, order };
}

const apiError = (status: number, message: string, field?: string) => ({ status, data: { errors: [{ message, field }] } });

describe('the add-card flow (spec §4)', () => {
  it('runs the steps in order and adds the card', async () => {
    const { d, order } = deps();
    const outcome = await addCard({ values, card, email: 'ann@example.com', phone: '+15550001111' }, d);
    expect(outcome).toEqual({ kind: 'added', paymentMethodId: 'pm_new', last4: '4242' });
    expect(order).toEqual(['name', 'createPaymentMethod', 'register', 'savedCards', 'customer', 'setupIntent', 'confirmCardSetup', 'setDefault', 'flag', 'refetch']);
    expect(d.updateCustomerName).toHaveBeenCalledWith({ first_name: 'Ann', last_name: 'Lee' });
    expect(d.createPaymentMethod).toHaveBeenCalledWith({
      type: 'card',
      card,
      billing_details: {
        name: 'Ann Lee',
        email: 'ann@example.com',
        phone: '+15550001111',
        address: { line1: '12 Main Street', line2: '4', city: 'Springfield', state: 'Illinois', postal_code: '62701', country: 'US' },
      },
    });
    expect(d.createSetupIntent).toHaveBeenCalledWith({ stripe_customer_id: 'cus_1' });
    expect(d.confirmCardSetup).toHaveBeenCalledWith('seti_1_secret_x', 'pm_new');
    expect(d.setDefault).toHaveBeenCalledWith({ payment_method_id: 'pm_new' });
    expect(d.notify).not.toHaveBeenCalled();
  });

  it('stops at a duplicate fingerprint with the info toast', async () => {
    const { d, order } = deps({ registerPaymentMethod: vi.fn(async () => ({ paymentMethodId: 'pm_new', fingerprint: 'fp_old', last4: '1111' })) });
    expect(await addCard({ values, card }, d)).toEqual({ kind: 'duplicate', last4: '1111' });
    expect(d.notify).toHaveBeenCalledWith('Card ****1111 already exist. Please, add the new one.', 'info');
    expect(order).not.toContain('setupIntent');
    expect(d.confirmCardSetup).not.toHaveBeenCalled();
    expect(d.markPaymentMethodAdded).not.toHaveBeenCalled();
  });

  it('tells a failed default and still completes', async () => {
    const { d, order } = deps({ setDefault: vi.fn(async () => Promise.reject(apiError(400, 'nope'))) });
    expect((await addCard({ values, card }, d)).kind).toBe('added');
    expect(d.notify).toHaveBeenCalledWith('The credit card was successfully added. But failed to set it as default.', 'error');
    expect(order.slice(-2)).toEqual(['flag', 'refetch']);
  });

  it('does not set the default when not asked', async () => {
    const { d } = deps();
    await addCard({ values: { ...values, setDefault: false }, card }, d);
    expect(d.setDefault).not.toHaveBeenCalled();
  });

  it('tells a card creation error with the provider message, or the spec fallback', async () => {
    const { d } = deps({ createPaymentMethod: vi.fn(async () => ({ error: { type: 'card_error', message: 'Your card number is invalid.' } })) as AddCardDeps['createPaymentMethod'] });
    expect(await addCard({ values, card }, d)).toEqual({ kind: 'failed', step: 2 });
    expect(d.notify).toHaveBeenCalledWith('Your card number is invalid.', 'error');
    expect(d.registerPaymentMethod).not.toHaveBeenCalled();

    const { d: d2 } = deps({ createPaymentMethod: vi.fn(async () => ({ error: { type: 'api_error' } })) as AddCardDeps['createPaymentMethod'] });
    await addCard({ values, card }, d2);
    expect(d2.notify).toHaveBeenCalledWith('Card was not created. make sure all data is correct.', 'error');
  });

  it('tells a setup confirmation error with the provider message, or the spec fallback', async () => {
    const { d } = deps({
      confirmCardSetup: vi.fn(async () => ({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } })) as AddCardDeps['confirmCardSetup'],
    });
    expect(await addCard({ values, card }, d)).toEqual({ kind: 'failed', step: 6 });
    expect(d.notify).toHaveBeenCalledWith('Your card was declined.', 'error');
    expect(d.setDefault).not.toHaveBeenCalled();
    expect(d.markPaymentMethodAdded).not.toHaveBeenCalled();

    const { d: d2 } = deps({ confirmCardSetup: vi.fn(async () => ({ error: { type: 'api_error', message: '' } })) as AddCardDeps['confirmCardSetup'] });
    await addCard({ values, card }, d2);
    expect(d2.notify).toHaveBeenCalledWith('An error occurred please try again later', 'error');
  });

  it('puts the server name errors on the name fields and stops', async () => {
    const { d } = deps({ updateCustomerName: vi.fn(async () => Promise.reject(apiError(400, 'Minimum 2 characters', 'first_name'))) });
    expect(await addCard({ values, card }, d)).toEqual({ kind: 'invalid', fields: { firstName: 'Minimum 2 characters' } });
    expect(d.createPaymentMethod).not.toHaveBeenCalled();
  });

  it('leaves 5xx messages to the base query', async () => {
    const { d } = deps({ registerPaymentMethod: vi.fn(async () => Promise.reject(apiError(503, 'down'))) });
    expect(await addCard({ values, card }, d)).toEqual({ kind: 'failed', step: 3 });
    expect(d.notify).not.toHaveBeenCalled();
  });
});

describe('billing details', () => {
  it('sends the ISO code of the country and leaves out an unknown one', () => {
    expect(billingDetails({ ...values, country: 'Germany' }).address.country).toBe('DE');
    expect(billingDetails({ ...values, country: 'Atlantis' }).address).not.toHaveProperty('country');
  });
});
