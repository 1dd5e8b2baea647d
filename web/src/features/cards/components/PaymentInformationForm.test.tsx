import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTestStore, renderAt, serve } from '../../../testing';
import { apiCard } from '../testing/helpers';
import { AddCardDialog, withAddPaymentFlag } from './AddCardDialog';
import { NO_PROFILE_ADDRESS, PaymentInformationForm, savedAddress, type PaymentInformationProps } from './PaymentInformationForm';

// Stripe.js at the module boundary: card fields that report complete once mounted (the number
// as a Visa).
function completeField(extra: Record<string, unknown> = {}) {
  return ({ onChange }: { onChange: (e: Record<string, unknown>) => void }) => {
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as Stripe.js reports after typing
    useEffect(() => onChange({ complete: true, error: undefined, ...extra }), []);
    return <div data-testid="card-element" />;
  };
}
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: React.ReactNode }) => children,
  CardNumberElement: completeField({ brand: 'visa' }),
  CardExpiryElement: completeField(),
  CardCvcElement: completeField(),
  useStripe: () => ({}),
  useElements: () => ({ getElement: () => ({}) }),
}));
vi.mock('../../../lib/stripe', () => ({
  StripeElements: ({ children }: { children: React.ReactNode }) => children,
  useStripeStatus: () => 'ready',
  markPaymentMethodAdded: vi.fn(),
}));

const profile = {
  id: 'u1',
  username: 'ann',
  email: 'ann@example.com',
  first_name: 'Ann',
  last_name: 'Lee',
  phone_number: { country_code: '+1', national_number: '5550001111' },
  address: { country: 'Germany', province: 'Berlin', street: 'Unter den Linden', house: '5', apartment_number: '', city: 'Berlin', zip_code: '10117' },
};

const PRICING = { first_authorisation: 50 };

afterEach(() => vi.unstubAllGlobals());

function renderForm(props: Partial<PaymentInformationProps> = {}, me: typeof profile = profile, cards: unknown[] = []) {
  serve({ 'GET accounts/me/': me, 'GET payments/pricing/': PRICING, 'GET payments/payment-methods/get/': { payment_methods: cards } });
  const handlers = { onClose: vi.fn(), onConfirm: vi.fn(), onBack: vi.fn() };
  renderAt(makeTestStore(), [{ path: '/', element: <PaymentInformationForm {...handlers} {...props} /> }], '/');
  return handlers;
}

describe('the payment information form', () => {
  it('copies the profile address when switched on and clears it when switched off', async () => {
    renderForm();
    expect(screen.getByRole('heading', { name: 'Payment information' })).toBeInTheDocument();
    const use = screen.getByRole('switch', { name: 'Use Previously Entered Address for Credit Card' });
    await waitFor(() => expect(use).toBeEnabled());
    await userEvent.click(use);
    expect(screen.getByRole('button', { name: 'Billing Address' })).toHaveTextContent('5, Unter den Linden, Berlin, Germany, 10117');
    await userEvent.click(use);
    expect(screen.getByRole('button', { name: 'Billing Address' })).toHaveTextContent(/^Billing Address$/);
    expect(await screen.findByText('Enter your billing address')).toBeInTheDocument();
  });

  it('keeps the switch off and says why when the profile has no address', async () => {
    const empty = { country: '', province: '', street: '', house: '', apartment_number: '', city: '', zip_code: '' };
    renderForm({}, { ...profile, address: empty });
    const use = screen.getByRole('switch', { name: 'Use Previously Entered Address for Credit Card' });
    await waitFor(() => expect(use).toHaveAccessibleDescription(NO_PROFILE_ADDRESS));
    expect(use).toBeDisabled();
    expect(use).not.toBeChecked();
    expect(screen.getByText(NO_PROFILE_ADDRESS)).toBeVisible();
  });

  it('says before the first card is saved that it is authorised with a $0.50 charge kept as wallet credit', async () => {
    renderForm();
    expect(await screen.findByTestId('first-authorisation')).toHaveTextContent(
      'Saving your first card authorises it with a one-time $0.50 charge. The $0.50 stays yours as CreditCard Wallet credit.',
    );
  });

  it('says nothing of the authorisation once a card is saved', async () => {
    renderForm({}, profile, [apiCard()]);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Use Previously Entered Address for Credit Card' })).toBeEnabled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('first-authorisation')).toBeNull();
  });

  it('reads a profile address as missing until every required part is there', () => {
    const full = { country: 'Germany', province: 'Berlin', street: 'Unter den Linden', house: '5', apartmentNumber: '', city: 'Berlin', zipCode: '10117' };
    expect(savedAddress(full)).toEqual({ ...full, foundAddress: '' });
    expect(savedAddress({ ...full, street: ' ' })).toBeUndefined();
    expect(savedAddress(undefined)).toBeUndefined();
  });

  it('enables the submit only with valid names, a billing address and a complete card', async () => {
    renderForm();
    const submit = screen.getByRole('button', { name: 'Almost Done!' });
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText('First Name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Last Name'), 'L');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Use Previously Entered Address for Credit Card' })).toBeEnabled());
    await userEvent.click(screen.getByRole('switch', { name: 'Use Previously Entered Address for Credit Card' }));
    expect(await screen.findByText('Minimum 2 characters')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Last Name'), 'ee');
    await waitFor(() => expect(submit).toBeEnabled());
    expect(screen.getByRole('switch', { name: 'Set as Default for Payments' })).toBeChecked();
  });

  it('hides the default switch when not allowed and offers proceeding without a promo code', () => {
    renderForm({ allowSetDefault: false, promoEnabled: true });
    expect(screen.queryByRole('switch', { name: 'Set as Default for Payments' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Proceed without a Promo Code' })).toBeInTheDocument();
  });

  it('Escape asks before leaving, and Escape again stays', async () => {
    const { onClose } = renderForm();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Leave this page?' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Leave this page?' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('asks before leaving (Leave) and before going back (Out)', async () => {
    const { onClose, onBack } = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    let dialog = screen.getByRole('dialog', { name: 'Leave this page?' });
    expect(within(dialog).getByText('Your progress and data will be lost.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    expect(onClose).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    dialog = screen.getByRole('dialog', { name: 'Leave this page?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Out' }));
    expect(onBack).toHaveBeenCalledOnce();
  });
});

describe('the add-card dialog', () => {
  it('keeps the other query parameters when adding or removing add-payment', () => {
    expect(withAddPaymentFlag('?a=1', true)).toBe('?a=1&add-payment=true');
    expect(withAddPaymentFlag('?a=1&add-payment=true', false)).toBe('?a=1');
    expect(withAddPaymentFlag('?add-payment=true', false)).toBe('');
  });

  it('puts add-payment=true in the address while open and restores it on close', async () => {
    serve({ 'GET accounts/me/': profile });
    const onClose = vi.fn();
    const { router } = renderAt(makeTestStore(), [{ path: '/payment-methods', element: <AddCardDialog onClose={onClose} /> }], '/payment-methods?tab=1');
    expect(screen.getByRole('heading', { name: 'Add Credit Card' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Card' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=1&add-payment=true'));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(onClose).toHaveBeenCalledOnce();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=1'));
  });
});
