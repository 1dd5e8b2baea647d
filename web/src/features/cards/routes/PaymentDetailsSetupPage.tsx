//! /payment-details-setup: the first card after sign-up, with promo codes (spec §2 "Payment
//! information"): 'Almost Done!' opens the promo dialog, 'Proceed without a Promo Code' adds the
//! card straight away. Done or left, the user goes home.
import { useNavigate } from 'react-router';
import { HOME } from '../../../lib/routing/accessTable';
import { StripeElements } from '../../../lib/stripe';
import { PaymentInformationForm } from '../components/PaymentInformationForm';
import '../cards.css';

export function PaymentDetailsSetupPage() {
  const navigate = useNavigate();
  return (
    <main className="page payment-setup">
      <StripeElements>
        <PaymentInformationForm promoEnabled onClose={() => navigate(HOME, { replace: true })} onConfirm={() => navigate(HOME, { replace: true })} />
      </StripeElements>
    </main>
  );
}
