//! The three payment dialogs a paying screen renders (spec §2, §4, §8), each opened through the ui
//! slice's dialog name: insufficient funds (on /stored-account and /checkout only), the top-up form
//! it leads to, and the failed payment, last so that it opens over the top-up form.
import { FailedPaymentDialog } from './FailedPaymentDialog';
import { InsufficientFundsDialog } from './InsufficientFundsDialog';
import { TopUpStoredAccountDialog } from './TopUpStoredAccountDialog';

export function PaymentDialogs() {
  return (
    <>
      <InsufficientFundsDialog />
      <TopUpStoredAccountDialog />
      <FailedPaymentDialog />
    </>
  );
}
