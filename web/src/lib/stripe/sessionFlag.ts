//! The session flag that records that the user has a payment method (spec §3 "Local state"),
//! set when a card has been added; kept in sessionStorage, so it ends with the browser session.
export const PAYMENT_METHOD_FLAG = 'evidentia.hasPaymentMethod';

export function markPaymentMethodAdded(): void {
  try {
    window.sessionStorage.setItem(PAYMENT_METHOD_FLAG, 'true');
  } catch {
    // Storage refused (private mode): the flag is only a hint.
  }
}

export function hasPaymentMethodFlag(): boolean {
  try {
    return window.sessionStorage.getItem(PAYMENT_METHOD_FLAG) === 'true';
  } catch {
    return false;
  }
}
