//! /payment-details-setup: the first card after sign-up (the step after the walkthrough), with
//! promo codes (spec §2 "Payment information"): 'Almost Done!' opens the promo dialog, 'Proceed
//! without a Promo Code' adds the card straight away. A saved card says 'Card was added'; 'Skip
//! for now' (or leaving) goes on without one. Either way the user goes home.
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { HOME } from '../../../lib/routing/accessTable';
import { StripeElements } from '../../../lib/stripe';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { PaymentInformationForm } from '../components/PaymentInformationForm';
import { ADD_CARD_MESSAGES } from '../model/addCard';
import '../cards.css';

export function PaymentDetailsSetupPage() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const home = () => navigate(HOME, { replace: true });
  return (
    <main className="page payment-setup">
      <StripeElements>
        <PaymentInformationForm
          promoEnabled
          onClose={home}
          onConfirm={() => {
            dispatch(showSnackbar({ message: ADD_CARD_MESSAGES.added, type: 'info' }));
            home();
          }}
        />
      </StripeElements>
      <p className="page__footer">
        <button type="button" className="link payment-setup__skip" onClick={home}>
          Skip for now
        </button>
      </p>
    </main>
  );
}
