//! The card payment step the wallet create and top-up flows share (spec §4 "Wallet create flow"
//! step 1, §7 payment-intent/create, §8): create the PaymentIntent with the card and the metadata
//! (action and amount in cents) under the attempt's Idempotency-Key, confirm its client_secret
//! with Stripe.js; a decline opens the failed-payment dialog, any other error shows the
//! provider's message or 'An error occured please try again later' (sic).
import { useCallback } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { alreadyReported, firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { useCreatePaymentIntentMutation } from '../../../lib/api/payments';
import { confirmCardPayment, isCardDeclined } from '../../../lib/stripe';
import { DIALOG, dialogOpened, showSnackbar } from '../../../lib/ui/uiSlice';
import type { Attempt } from './attempt';

/** Spec §8 'Other card confirmation error', word for word (sic). */
export const CONFIRMATION_ERROR = 'An error occured please try again later';

export type CardPaymentOutcome = 'succeeded' | 'declined' | 'failed';

export interface CardPayment {
  cardId: string;
  action: number;
  /** Cents. */
  amount: number;
}

export function useCardPayment(attempt: Attempt) {
  const dispatch = useAppDispatch();
  const [createIntent] = useCreatePaymentIntentMutation();

  return useCallback(
    async ({ cardId, action, amount }: CardPayment): Promise<CardPaymentOutcome> => {
      const fail = (message: string): CardPaymentOutcome => {
        dispatch(showSnackbar({ message, type: 'error' }));
        return 'failed';
      };
      const intent = await createIntent({ payment_method_id: cardId, metadata: { action, amount }, idempotencyKey: attempt.key() });
      if ('error' in intent) {
        if (isDefinitive(intent.error)) attempt.settle();
        if (alreadyReported(intent.error)) return 'failed';
        return fail(firstErrorMessage(intent.error, isDefinitive(intent.error) ? CONFIRMATION_ERROR : SERVER_ERROR_MESSAGE));
      }
      // The PaymentIntent exists: whatever the confirmation says, this attempt is over.
      attempt.settle();
      let result: Awaited<ReturnType<typeof confirmCardPayment>>;
      try {
        result = await confirmCardPayment(intent.data.clientSecret, dispatch);
      } catch {
        return fail(CONFIRMATION_ERROR);
      }
      if (result.error) {
        if (isCardDeclined(result.error)) {
          dispatch(dialogOpened(DIALOG.failedPayment));
          return 'declined';
        }
        return fail(result.error.message || CONFIRMATION_ERROR);
      }
      if (result.paymentIntent && result.paymentIntent.status !== 'succeeded') return fail(CONFIRMATION_ERROR);
      return 'succeeded';
    },
    [attempt, createIntent, dispatch],
  );
}

/** Spec §9: a delay of 1 second follows a card confirmation (the webhook credits the wallet). */
export const CONFIRMATION_DELAY_MS = 1000;
export const afterConfirmation = () => new Promise<void>((resolve) => setTimeout(resolve, CONFIRMATION_DELAY_MS));
