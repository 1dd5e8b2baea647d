//! Payments, the feature the paying screens share (wallet, checkout, cards): one attempt's
//! Idempotency-Key, the card payment step (PaymentIntent, then Stripe.js), the wallet form and its
//! rules, the payment dialogs, and a card's name. Other features import it only from here.
export { PaymentDialogs } from './components/PaymentDialogs';
export { WalletForm, type WalletValues } from './components/WalletForm';
export { useAttempt, type Attempt } from './model/attempt';
export { brandName, cardTitle } from './model/cardTitle';
export { afterConfirmation, useCardPayment } from './model/useCardPayment';
export { AUTO_TOP_UP_THRESHOLD } from './model/walletRules';
