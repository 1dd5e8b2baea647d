//! The card fields (number, expiry MM/YY, CVV) as one Stripe card Element — the local Stripe.js
//! stand-in supports only that one — with the brand icon: error while the field has an error,
//! otherwise the detected brand, unknown at first (spec §4). Messages come from Stripe.js, under
//! the field; an error set by the flow (a duplicate card) shows there too.
import { CardElement } from '@stripe/react-stripe-js';
import type { StripeCardElementChangeEvent } from '@stripe/stripe-js';
import { useStripeStatus } from '../../../lib/stripe';
import { brandIcon } from '../model/cards';
import { BrandIcon } from './BrandIcon';

export interface CardState {
  complete: boolean;
  error?: string;
  brand: string;
}

export const INITIAL_CARD_STATE: CardState = { complete: false, brand: 'unknown' };

interface Props {
  state: CardState;
  onChange: (state: CardState) => void;
  /** An error from the flow (e.g. 'Card already exist'), shown until the card changes. */
  flowError?: string;
}

const OPTIONS = {
  hidePostalCode: true,
  style: { base: { fontSize: '16px', color: '#1f2a37', '::placeholder': { color: '#8a96a3' } }, invalid: { color: '#d93025' } },
};

export function CardField({ state, onChange, flowError }: Props) {
  const status = useStripeStatus();
  const error = state.error ?? flowError;
  return (
    <div className={`field card-field${error ? ' field--error' : ''}`}>
      <span className="card-field__label" id="card-field-label">
        Card number, expiry (MM/YY) and CVV
      </span>
      <div className="card-field__row">
        <BrandIcon brand={error ? 'error' : brandIcon(state.brand)} />
        <div className="card-field__element" aria-labelledby="card-field-label">
          {status === 'failed' ? (
            <span className="muted">The card fields could not be loaded. Check the connection and try again.</span>
          ) : (
            <CardElement
              options={OPTIONS}
              onChange={(e: StripeCardElementChangeEvent) => onChange({ complete: e.complete, error: e.error?.message, brand: e.brand })}
            />
          )}
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
