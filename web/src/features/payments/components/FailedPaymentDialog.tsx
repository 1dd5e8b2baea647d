//! The failed-payment dialog (spec §2, §4, §8): open when the ui slice's dialog name is the
//! failed-payment value. Cancel closes it; 'Change Card' goes to the payment methods when the user
//! is on checkout (without closing it, as spec §4 says), and otherwise closes it so the card picker
//! underneath can be used.
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DIALOG, dialogClosed } from '../../../lib/ui/uiSlice';

export const CHECKOUT = '/checkout';
export const PAYMENT_METHODS = '/payment-methods';

/** What 'Change Card' does on `pathname`. */
export function changeCardAction(pathname: string): 'go-to-payment-methods' | 'close' {
  return pathname === CHECKOUT ? 'go-to-payment-methods' : 'close';
}

export function FailedPaymentDialog() {
  const open = useAppSelector((state) => state.ui.dialog === DIALOG.failedPayment);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const changeCard = () => {
    if (changeCardAction(pathname) === 'go-to-payment-methods') void navigate(PAYMENT_METHODS);
    else dispatch(dialogClosed());
  };

  return (
    <ConfirmDialog
      isOpen={open}
      title="Your Card was declined"
      subTitle="We were unable to process your payment. Please change your payment method."
      buttons={[
        { text: 'Change Card', onClick: changeCard, isHighlighted: true },
        { text: 'Cancel', onClick: () => dispatch(dialogClosed()) },
      ]}
    />
  );
}
