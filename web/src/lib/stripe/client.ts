//! Loading Stripe.js and the card helpers the payments screens share (spec §4 "Add card", §9).
//!
//! The browser learns which Stripe.js to load and which publishable key to use from
//! GET /api/payments/config/, and from nowhere else: the gateway's configuration decides
//! (production: https://js.stripe.com/v3/ and the live key; the local stack: localstripe's
//! stand-in and its test key). The app holds no Stripe URL or key of its own, so no build can fall
//! back to the emulator. The script is injected once, then `loadStripe` from
//! `@stripe/stripe-js/pure` (which never injects a script of its own) picks up `window.Stripe`.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { PaymentIntentResult, Stripe, StripeError } from '@stripe/stripe-js';
import { paymentsApi, type PaymentsConfig } from '../api/payments';
import type { AppDispatch } from '../store/hooks';

async function fetchConfig(dispatch: AppDispatch): Promise<PaymentsConfig> {
  const request = dispatch(paymentsApi.endpoints.paymentsConfig.initiate(undefined, { subscribe: false }));
  const result = await request;
  if (result.data) return result.data;
  throw new Error('Could not get the payments configuration');
}

const injected = new Map<string, Promise<void>>();

/** Adds `<script src={url}>` once per URL and resolves when it has run. */
export function injectScriptOnce(url: string): Promise<void> {
  const known = injected.get(url);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => {
      injected.delete(url);
      script.remove();
      reject(new Error(`Failed to load Stripe.js from ${url}`));
    });
    (document.head ?? document.body).appendChild(script);
  });
  injected.set(url, loading);
  return loading;
}

let client: Promise<Stripe> | null = null;

/**
 * The Stripe.js client, loaded once (a failed load is retried by the next call); `dispatch` asks
 * the API for the configuration, with the session's token.
 */
export function loadStripeClient(dispatch: AppDispatch): Promise<Stripe> {
  if (!client) {
    client = (async () => {
      const config = await fetchConfig(dispatch);
      await injectScriptOnce(config.stripeJsUrl);
      const stripe = await loadStripe(config.publishableKey);
      if (!stripe) throw new Error('Stripe.js not available');
      return stripe;
    })();
    client.catch(() => {
      client = null;
    });
  }
  return client;
}

/** Confirms a PaymentIntent with its saved payment method (wallet creation and top-ups, spec §4). */
export async function confirmCardPayment(clientSecret: string, dispatch: AppDispatch): Promise<PaymentIntentResult> {
  const stripe = await loadStripeClient(dispatch);
  return stripe.confirmCardPayment(clientSecret);
}

/** True for a Stripe error that is a card decline (code `card_declined`, or a decline code). */
export function isCardDeclined(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as Partial<StripeError>;
  return e.code === 'card_declined' || (typeof e.decline_code === 'string' && e.decline_code.length > 0);
}

/** Forgets the loaded client (tests). */
export function resetStripeClientForTests(): void {
  client = null;
  injected.clear();
}
