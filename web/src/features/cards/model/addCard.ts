//! The add-card flow of spec §4, step by step, over injected calls (the backend through RTK
//! Query, the card provider through Stripe.js), so each step and stop can be tested alone:
//! 1. update the customer's first and last name;
//! 2. create a payment method at Stripe with the billing details (name, e-mail, phone, address,
//!    the country's ISO code);
//! 3. register it with the backend and read its fingerprint;
//! 4. stop as a duplicate when a saved card has the same fingerprint;
//! 5. request a setup client secret with the customer id (createStripeCustomer);
//! 6. confirm the card setup with Stripe;
//! 7. if asked, set the card as default (a failure is told and the flow goes on);
//! 8. store the session flag and refetch the card list (the caller then closes the promo dialog
//!    and calls its confirm callback).
import type { CreatePaymentMethodData, PaymentMethodResult, SetupIntentResult, StripeCardNumberElement, StripeError } from '@stripe/stripe-js';
import type { Card } from '../../../lib/api/payments';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { isoCode } from '../../../lib/countries/iso';
import type { Severity } from '../../../lib/ui/uiSlice';
import type { PaymentInformationValues } from '../validation/billing';

export const ADD_CARD_MESSAGES = {
  cardNotCreated: 'Card was not created. make sure all data is correct.',
  setupFailed: 'An error occurred please try again later',
  duplicateInline: 'Card already exist',
  duplicateToast: (last4: string) => `Card ****${last4} already exist. Please, add the new one.`,
  defaultFailed: 'The credit card was successfully added. But failed to set it as default.',
  // spec §2 "Payment-method list": the info message once a card is saved.
  added: 'Card was added',
} as const;

export interface AddCardDeps {
  updateCustomerName(body: { first_name: string; last_name: string }): Promise<unknown>;
  createPaymentMethod(data: CreatePaymentMethodData): Promise<PaymentMethodResult>;
  registerPaymentMethod(body: { payment_method_id: string }): Promise<{ paymentMethodId: string; fingerprint: string; last4: string }>;
  savedCards(): Promise<Card[]>;
  createStripeCustomer(): Promise<{ stripeCustomerId: string }>;
  createSetupIntent(body: { stripe_customer_id: string }): Promise<{ clientSecret: string }>;
  confirmCardSetup(clientSecret: string, paymentMethodId: string): Promise<SetupIntentResult>;
  setDefault(body: { payment_method_id: string }): Promise<unknown>;
  refetchCards(): Promise<unknown>;
  markPaymentMethodAdded(): void;
  notify(message: string, type: Severity): void;
}

export interface AddCardInput {
  values: PaymentInformationValues;
  /** The mounted card number Element, which stands for the three card fields. */
  card: StripeCardNumberElement;
  email?: string;
  phone?: string;
}

export type AddCardOutcome =
  | { kind: 'added'; paymentMethodId: string; last4: string }
  | { kind: 'duplicate'; last4: string }
  | { kind: 'invalid'; fields: Record<string, string> }
  | { kind: 'failed'; step: number };

/** Billing details for Stripe (step 2): the country goes as its ISO 3166 alpha-2 code. */
export function billingDetails(values: PaymentInformationValues, email?: string, phone?: string) {
  const country = isoCode(values.country);
  return {
    name: `${values.firstName.trim()} ${values.lastName.trim()}`,
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
    address: {
      line1: [values.house.trim(), values.street.trim()].filter(Boolean).join(' '),
      ...(values.apartmentNumber.trim() ? { line2: values.apartmentNumber.trim() } : {}),
      city: values.city.trim(),
      state: values.province.trim(),
      postal_code: values.zipCode.trim(),
      ...(country ? { country } : {}),
    },
  };
}

function providerMessage(error: StripeError | undefined, fallback: string): string {
  return error?.message?.trim() ? error.message : fallback;
}

export async function addCard(input: AddCardInput, deps: AddCardDeps): Promise<AddCardOutcome> {
  const { values } = input;
  // A server error (5xx) has already been told by the base query (spec §8).
  const tell = (error: unknown, fallback: string) => {
    const status = errorStatus(error);
    if (status === undefined || status < 500) deps.notify(firstErrorMessage(error, fallback), 'error');
  };

  // 1. The customer's name.
  try {
    await deps.updateCustomerName({ first_name: values.firstName.trim(), last_name: values.lastName.trim() });
  } catch (error) {
    const byField = fieldErrors(error);
    const fields: Record<string, string> = {};
    if (byField.first_name) fields.firstName = byField.first_name;
    if (byField.last_name) fields.lastName = byField.last_name;
    if (Object.keys(fields).length) return { kind: 'invalid', fields };
    tell(error, ADD_CARD_MESSAGES.setupFailed);
    return { kind: 'failed', step: 1 };
  }

  // 2. The payment method at Stripe.
  let created: PaymentMethodResult;
  try {
    created = await deps.createPaymentMethod({ type: 'card', card: input.card, billing_details: billingDetails(values, input.email, input.phone) });
  } catch {
    deps.notify(ADD_CARD_MESSAGES.cardNotCreated, 'error');
    return { kind: 'failed', step: 2 };
  }
  if (created.error || !created.paymentMethod) {
    deps.notify(providerMessage(created.error, ADD_CARD_MESSAGES.cardNotCreated), 'error');
    return { kind: 'failed', step: 2 };
  }
  const paymentMethodId = created.paymentMethod.id;

  // 3. Registration and fingerprint; 4. the duplicate check against the saved cards.
  let registered: { fingerprint: string; last4: string };
  let saved: Card[];
  try {
    registered = await deps.registerPaymentMethod({ payment_method_id: paymentMethodId });
    saved = await deps.savedCards();
  } catch (error) {
    tell(error, ADD_CARD_MESSAGES.cardNotCreated);
    return { kind: 'failed', step: 3 };
  }
  const last4 = registered.last4 || created.paymentMethod.card?.last4 || '';
  if (saved.some((card) => card.id !== paymentMethodId && card.fingerprint === registered.fingerprint)) {
    deps.notify(ADD_CARD_MESSAGES.duplicateToast(last4), 'info');
    return { kind: 'duplicate', last4 };
  }

  // 5. The setup intent for the customer; 6. its confirmation at Stripe.
  let clientSecret: string;
  try {
    const { stripeCustomerId } = await deps.createStripeCustomer();
    ({ clientSecret } = await deps.createSetupIntent({ stripe_customer_id: stripeCustomerId }));
  } catch (error) {
    tell(error, ADD_CARD_MESSAGES.setupFailed);
    return { kind: 'failed', step: 5 };
  }
  let setup: SetupIntentResult;
  try {
    setup = await deps.confirmCardSetup(clientSecret, paymentMethodId);
  } catch {
    deps.notify(ADD_CARD_MESSAGES.setupFailed, 'error');
    return { kind: 'failed', step: 6 };
  }
  if (setup.error) {
    deps.notify(providerMessage(setup.error, ADD_CARD_MESSAGES.setupFailed), 'error');
    return { kind: 'failed', step: 6 };
  }

  // 7. Default, if asked; a failure is told and the card stays added.
  if (values.setDefault) {
    try {
      await deps.setDefault({ payment_method_id: paymentMethodId });
    } catch {
      deps.notify(ADD_CARD_MESSAGES.defaultFailed, 'error');
    }
  }

  // 8. The session flag and the fresh list.
  deps.markPaymentMethodAdded();
  try {
    await deps.refetchCards();
  } catch {
    // The list refreshes on its next read.
  }
  return { kind: 'added', paymentMethodId, last4 };
}
