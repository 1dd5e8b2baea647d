//! The top-up stored account dialog: the wallet form in top-up mode over the current screen,
//! opened by setting the ui slice's dialog name (the insufficient-funds dialog's 'Change Payment
//! Method', the stored-account screen's Top-up). The request is taken at once, so the failed-payment
//! dialog can open over the form. Spec §4 "Wallet edit and top-up": the card is charged through a
//! PaymentIntent with action 4 and the amount in cents; on success, when the wallet's card was
//! changed or its last auto top-up had failed, the chosen card becomes the wallet card (which
//! clears the error); then, 1 second on, the user is refreshed and 'Your CreditCard Wallet has
//! been topped-up.' is shown.
import { useEffect, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { api } from '../../../lib/api/api';
import { alreadyReported, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { ACTION_TOP_UP, useStoredAccountQuery, useUpdateStoredAccountMutation } from '../../../lib/api/payments';
import { DIALOG, dialogClosed, showSnackbar } from '../../../lib/ui/uiSlice';
import { useAttempt } from '../model/attempt';
import { afterConfirmation, useCardPayment } from '../model/useCardPayment';
import { WalletForm, type WalletValues } from './WalletForm';

export const TOPPED_UP_MESSAGE = 'Your CreditCard Wallet has been topped-up.';

export function TopUpStoredAccountDialog() {
  const requested = useAppSelector((state) => state.ui.dialog === DIALOG.topUpStoredAccount);
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState(false);

  // The request opens the form (state adjusted while rendering) and is then taken off the slice.
  if (requested && !open) setOpen(true);
  useEffect(() => {
    if (requested) dispatch(dialogClosed());
  }, [requested, dispatch]);

  return open ? <TopUp onClose={() => setOpen(false)} /> : null;
}

function TopUp({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const account = useStoredAccountQuery();
  const [updateAccount] = useUpdateStoredAccountMutation();
  const attempt = useAttempt();
  const pay = useCardPayment(attempt);
  const [submitting, setSubmitting] = useState(false);

  const submit = async ({ cardId, amount }: WalletValues) => {
    setSubmitting(true);
    try {
      const outcome = await pay({ cardId, action: ACTION_TOP_UP, amount });
      if (outcome !== 'succeeded') return;
      const wallet = account.data;
      if (wallet?.active && (wallet.topUpError || wallet.paymentMethodId !== cardId)) {
        const updated = await updateAccount({ auto_topping_up_amount: wallet.autoToppingUpAmount, payment_method_id: cardId });
        if ('error' in updated && !alreadyReported(updated.error)) {
          dispatch(showSnackbar({ message: firstErrorMessage(updated.error, SERVER_ERROR_MESSAGE), type: 'error' }));
        }
      }
      await afterConfirmation();
      dispatch(api.util.invalidateTags(['Me', 'StoredAccount', 'Wallet', 'Transactions']));
      dispatch(showSnackbar({ message: TOPPED_UP_MESSAGE, type: 'info' }));
      onClose();
    } finally {
      setSubmitting(false);
    }
  };

  if (account.isLoading) return null;
  return (
    <WalletForm
      mode="top-up"
      initialCardId={account.data?.paymentMethodId ?? null}
      submitting={submitting}
      onSubmit={(values) => void submit(values)}
      onClose={onClose}
    />
  );
}
