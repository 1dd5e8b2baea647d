//! The add-card dialog (spec §2): full screen, 'Add Credit Card', submit 'Add Card', an option to
//! set the card as default. While it is open the address carries add-payment=true beside its
//! other query parameters; closing restores it. Close goes to the caller's close handler, or
//! else to /payment-methods; success to the caller's success handler, or else as close.
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { StripeElements } from '../../../lib/stripe';
import type { AddCardOutcome } from '../model/addCard';
import { ADD_PAYMENT_FLAG, PAYMENT_METHODS } from '../paths';
import { PaymentInformationForm } from './PaymentInformationForm';
import '../cards.css';

interface Props {
  onClose?: () => void;
  onSuccess?: (outcome: Extract<AddCardOutcome, { kind: 'added' }>) => void;
  allowSetDefault?: boolean;
}

/** `search` with add-payment=true added (or removed), other parameters kept in order. */
export function withAddPaymentFlag(search: string, on: boolean): string {
  const params = new URLSearchParams(search);
  if (on) params.set(ADD_PAYMENT_FLAG, 'true');
  else params.delete(ADD_PAYMENT_FLAG);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function AddCardDialog({ onClose, onSuccess, allowSetDefault = true }: Props) {
  const navigate = useNavigate();
  const location = useLocation();
  const [restoreTo] = useState(() => withAddPaymentFlag(location.search, false));
  const closing = useRef(false);

  useEffect(() => {
    if (closing.current) return;
    if (new URLSearchParams(location.search).get(ADD_PAYMENT_FLAG) !== 'true') {
      navigate({ search: withAddPaymentFlag(location.search, true), hash: location.hash }, { replace: true, state: location.state });
    }
  }, [location.search, location.hash, location.state, navigate]);

  const close = () => {
    closing.current = true;
    if (onClose) {
      navigate({ search: restoreTo, hash: location.hash }, { replace: true, state: location.state });
      onClose();
    } else {
      navigate(PAYMENT_METHODS, { replace: true });
    }
  };

  return (
    <div className="fullscreen add-card" role="dialog" aria-modal="true" aria-label="Add Credit Card">
      <StripeElements>
        <PaymentInformationForm
          title="Add Credit Card"
          submitLabel="Add Card"
          allowSetDefault={allowSetDefault}
          onClose={close}
          onConfirm={(outcome) => {
            if (onSuccess) {
              closing.current = true;
              navigate({ search: restoreTo, hash: location.hash }, { replace: true, state: location.state });
              onSuccess(outcome);
            } else {
              close();
            }
          }}
        />
      </StripeElements>
    </div>
  );
}
