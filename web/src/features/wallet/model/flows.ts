//! The wallet create and edit flows (spec §4 "Wallet create flow", "Wallet edit and top-up"; §7).
//! Create: the card is charged the auto top-up amount through a PaymentIntent (action 2, cents,
//! an Idempotency-Key per attempt) confirmed by Stripe.js; then the wallet is stored with
//! stored-account/update, 1 second passes, the user is refreshed, and the user goes to the
//! congratulations screen unless the one-time benefit was already applied or close-on-created is
//! set, in which case 'Your CreditCard Wallet has been created.' is shown (and refer-a-friend
//! follows when ?refer=true). Edit: stored-account/update, then 'Your CreditCard Wallet has been
//! updated.' and back to settings.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { afterConfirmation, useAttempt, useCardPayment, type WalletValues } from '../../payments';
import { api } from '../../../lib/api/api';
import { alreadyReported, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { useMeQuery } from '../../../lib/api/me';
import { ACTION_CREATE_WALLET, useUpdateStoredAccountMutation } from '../../../lib/api/payments';
import { showSnackbar } from '../../../lib/ui/uiSlice';

export const CREATED_MESSAGE = 'Your CreditCard Wallet has been created.';
export const UPDATED_MESSAGE = 'Your CreditCard Wallet has been updated.';
export const CONGRATULATIONS = '/wallet-congratulations';
export const REFER_A_FRIEND = '/refer-a-friend';
export const SETTINGS = '/dashboard/settings';
export const STORED_ACCOUNT = '/stored-account';

export interface CreateOptions {
  /** Close the form when the wallet is created instead of showing the congratulations. */
  closeOnCreated: boolean;
  /** ?refer=true: go on to refer-a-friend. */
  refer: boolean;
  onClose: () => void;
}

export type AfterCreated = 'congratulations' | 'refer-a-friend' | 'close' | 'stored-account';

/** Spec §4 steps 3 and 4: where a created wallet leads. */
export function afterCreated(benefitApplied: boolean, { closeOnCreated, refer }: Pick<CreateOptions, 'closeOnCreated' | 'refer'>): AfterCreated {
  if (!benefitApplied && !closeOnCreated) return 'congratulations';
  if (refer) return 'refer-a-friend';
  return closeOnCreated ? 'close' : 'stored-account';
}

function useReportError() {
  const dispatch = useAppDispatch();
  return (error: unknown) => {
    if (!alreadyReported(error)) dispatch(showSnackbar({ message: firstErrorMessage(error, SERVER_ERROR_MESSAGE), type: 'error' }));
  };
}

export function useCreateWallet(options: CreateOptions) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const me = useMeQuery();
  const attempt = useAttempt();
  const pay = useCardPayment(attempt);
  const [updateAccount] = useUpdateStoredAccountMutation();
  const reportError = useReportError();
  const [submitting, setSubmitting] = useState(false);

  const submit = async ({ cardId, amount }: WalletValues) => {
    // "Already applied": as it stood before this wallet was made.
    const benefitApplied = me.data?.oneTimeBenefitApplied ?? false;
    setSubmitting(true);
    try {
      const outcome = await pay({ cardId, action: ACTION_CREATE_WALLET, amount });
      if (outcome !== 'succeeded') return;
      const stored = await updateAccount({ auto_topping_up_amount: amount, payment_method_id: cardId });
      if ('error' in stored) {
        reportError(stored.error);
        return;
      }
      await afterConfirmation();
      dispatch(api.util.invalidateTags(['Me', 'Wallet', 'StoredAccount']));
      const next = afterCreated(benefitApplied, options);
      if (next === 'congratulations') {
        void navigate(CONGRATULATIONS, { replace: true });
        return;
      }
      dispatch(showSnackbar({ message: CREATED_MESSAGE, type: 'info' }));
      if (next === 'refer-a-friend') void navigate(REFER_A_FRIEND, { replace: true });
      else if (next === 'close') options.onClose();
      else void navigate(STORED_ACCOUNT, { replace: true });
    } finally {
      setSubmitting(false);
    }
  };

  return { submit, submitting };
}

export function useEditWallet() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [updateAccount, updating] = useUpdateStoredAccountMutation();
  const reportError = useReportError();

  const submit = async ({ cardId, amount }: WalletValues) => {
    const result = await updateAccount({ auto_topping_up_amount: amount, payment_method_id: cardId });
    if ('error' in result) {
      reportError(result.error);
      return;
    }
    dispatch(showSnackbar({ message: UPDATED_MESSAGE, type: 'info' }));
    void navigate(SETTINGS);
  };

  return { submit, submitting: updating.isLoading };
}
