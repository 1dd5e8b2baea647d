//! The card fields: number, expiry (MM/YY) and CVV, each a Stripe Element of its own with its
//! message under it, and the brand icon beside the number: error while the number has an error,
//! otherwise the detected brand, unknown at first. Messages come from Stripe.js; an error set by
//! the flow (a duplicate card) shows under the number.
import { CardCvcElement, CardExpiryElement, CardNumberElement } from '@stripe/react-stripe-js';
import type { StripeCardCvcElementChangeEvent, StripeCardExpiryElementChangeEvent, StripeCardNumberElementChangeEvent } from '@stripe/stripe-js';
import { useId, type ReactNode } from 'react';
import { useStripeStatus } from '../../../lib/stripe';
import { brandIcon } from '../model/cards';
import { BrandIcon } from './BrandIcon';

/** What Stripe.js last reported for one card field. */
export interface FieldState {
  complete: boolean;
  error?: string;
}

export interface CardState {
  number: FieldState;
  expiry: FieldState;
  cvc: FieldState;
  brand: string;
}

const EMPTY: FieldState = { complete: false };

export const INITIAL_CARD_STATE: CardState = { number: EMPTY, expiry: EMPTY, cvc: EMPTY, brand: 'unknown' };

/** All three fields are complete. */
export function cardComplete(state: CardState): boolean {
  return state.number.complete && state.expiry.complete && state.cvc.complete;
}

/** Any field has an error. */
export function cardHasError(state: CardState): boolean {
  return Boolean(state.number.error ?? state.expiry.error ?? state.cvc.error);
}

interface Props {
  state: CardState;
  /** Takes an update of the state before it (Stripe.js may report two fields at once). */
  onChange: (update: (state: CardState) => CardState) => void;
  /** An error from the flow (e.g. 'Card already exist'), shown under the number until the card changes. */
  flowError?: string;
}

const OPTIONS = {
  style: { base: { fontSize: '16px', color: '#1f2a37', '::placeholder': { color: '#8a96a3' } }, invalid: { color: '#d93025' } },
};

const field = (e: { complete: boolean; error?: { message?: string } }): FieldState => ({ complete: e.complete, error: e.error?.message });

export function CardField({ state, onChange, flowError }: Props) {
  const status = useStripeStatus();
  const numberError = state.number.error ?? flowError;
  if (status === 'failed') {
    return (
      <div className="field card-field">
        <span className="card-field__label">Card number, expiry (MM/YY) and CVV</span>
        <span className="muted">The card fields could not be loaded. Check the connection and try again.</span>
      </div>
    );
  }
  return (
    <div className="card-fields">
      <CardInput label="Card number" error={numberError} icon={<BrandIcon brand={numberError ? 'error' : brandIcon(state.brand)} />}>
        <CardNumberElement
          options={OPTIONS}
          onChange={(e: StripeCardNumberElementChangeEvent) => onChange((s) => ({ ...s, number: field(e), brand: e.brand }))}
        />
      </CardInput>
      <div className="card-fields__pair">
        <CardInput label="Expiry (MM/YY)" error={state.expiry.error}>
          <CardExpiryElement options={OPTIONS} onChange={(e: StripeCardExpiryElementChangeEvent) => onChange((s) => ({ ...s, expiry: field(e) }))} />
        </CardInput>
        <CardInput label="CVV" error={state.cvc.error}>
          <CardCvcElement options={OPTIONS} onChange={(e: StripeCardCvcElementChangeEvent) => onChange((s) => ({ ...s, cvc: field(e) }))} />
        </CardInput>
      </div>
    </div>
  );
}

function CardInput({ label, error, icon, children }: { label: string; error?: string; icon?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div className={`field card-field${error ? ' field--error' : ''}`}>
      <span className="card-field__label" id={id}>
        {label}
      </span>
      <div className="card-field__row">
        {icon}
        <div className="card-field__element" role="group" aria-labelledby={id}>
          {children}
        </div>
      </div>
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
