//! Stripe.js for the payments screens: loading it (client.ts), the Elements provider, the
//! payment-method session flag.
export {
  confirmCardPayment,
  injectScriptOnce,
  isCardDeclined,
  loadStripeClient,
  resetStripeClientForTests,
} from './client';
export { StripeElements, useStripeStatus, type StripeStatus } from './StripeElements';
export { hasPaymentMethodFlag, markPaymentMethodAdded, PAYMENT_METHOD_FLAG } from './sessionFlag';
