//! The insufficient-funds dialog (spec §2, §7 "Handling of answers", §8): on the stored-account and
//! checkout routes only, a stored-account answer with a non-empty topUpError opens it, naming the
//! card (last4). 'Change Payment Method' opens the top-up stored account dialog; 'Back' closes it
//! (either way it stays closed for that error while the screen is open).
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { useStoredAccountQuery } from '../../../lib/api/payments';
import { DIALOG, dialogClosed, dialogOpened } from '../../../lib/ui/uiSlice';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

export const INSUFFICIENT_FUNDS_ROUTES = ['/stored-account', '/checkout'] as const;

export function showsInsufficientFunds(pathname: string): boolean {
  return (INSUFFICIENT_FUNDS_ROUTES as readonly string[]).includes(pathname);
}

export function InsufficientFundsDialog() {
  const { pathname } = useLocation();
  const allowed = showsInsufficientFunds(pathname);
  const { data: account } = useStoredAccountQuery(undefined, { skip: !allowed });
  const dialog = useAppSelector((state) => state.ui.dialog);
  const dispatch = useAppDispatch();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const error = allowed && account?.topUpError ? account.topUpError : null;

  useEffect(() => {
    if (error && error !== dismissed && dialog === null) dispatch(dialogOpened(DIALOG.insufficientFunds));
  }, [error, dismissed, dialog, dispatch]);

  const card = account?.last4 ? `Your credit card ending in ${account.last4}` : 'Your credit card';
  return (
    <ConfirmDialog
      isOpen={Boolean(error) && dialog === DIALOG.insufficientFunds}
      title="Insufficient Funds on your credit card"
      subTitle={`${card} has insufficient funds to AutoLoad your CreditCard Wallet. You can change the payment card.`}
      buttons={[
        {
          text: 'Change Payment Method',
          onClick: () => {
            setDismissed(error);
            dispatch(dialogOpened(DIALOG.topUpStoredAccount));
          },
          isHighlighted: true,
        },
        {
          text: 'Back',
          onClick: () => {
            setDismissed(error);
            dispatch(dialogClosed());
          },
        },
      ]}
    >
      {error && <p className="payments-dialog__detail muted">{error}</p>}
    </ConfirmDialog>
  );
}
