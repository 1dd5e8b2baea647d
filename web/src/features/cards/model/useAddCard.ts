//! The add-card flow wired to the app: RTK Query for the backend, Stripe.js for the provider,
//! the snackbar for messages.
import { useElements, useStripe, CardNumberElement } from '@stripe/react-stripe-js';
import { useCallback } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { useMeQuery } from '../../../lib/api/me';
import {
  paymentsApi,
  useCreateSetupIntentMutation,
  useCreateStripeCustomerMutation,
  useRegisterPaymentMethodMutation,
  useSetDefaultPaymentMethodMutation,
  useUpdateCustomerNameMutation,
} from '../../../lib/api/payments';
import { markPaymentMethodAdded } from '../../../lib/stripe';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import type { PaymentInformationValues } from '../validation/billing';
import { ADD_CARD_MESSAGES, addCard, type AddCardDeps, type AddCardOutcome } from './addCard';

export function useAddCard() {
  const stripe = useStripe();
  const elements = useElements();
  const dispatch = useAppDispatch();
  const me = useMeQuery();
  const [updateName] = useUpdateCustomerNameMutation();
  const [register] = useRegisterPaymentMethodMutation();
  const [createCustomer] = useCreateStripeCustomerMutation();
  const [createSetupIntent] = useCreateSetupIntentMutation();
  const [setDefault] = useSetDefaultPaymentMethodMutation();

  const ready = Boolean(stripe && elements);

  const run = useCallback(
    async (values: PaymentInformationValues): Promise<AddCardOutcome> => {
      const card = elements?.getElement(CardNumberElement);
      if (!stripe || !card) {
        dispatch(showSnackbar({ message: ADD_CARD_MESSAGES.cardNotCreated, type: 'error' }));
        return { kind: 'failed', step: 2 };
      }
      const fetchCards = () => dispatch(paymentsApi.endpoints.paymentMethods.initiate(undefined, { forceRefetch: true, subscribe: false })).unwrap();
      const deps: AddCardDeps = {
        updateCustomerName: (body) => updateName(body).unwrap(),
        createPaymentMethod: (data) => stripe.createPaymentMethod(data),
        registerPaymentMethod: (body) => register(body).unwrap(),
        savedCards: fetchCards,
        createStripeCustomer: () => createCustomer().unwrap(),
        createSetupIntent: (body) => createSetupIntent(body).unwrap(),
        confirmCardSetup: (clientSecret, paymentMethodId) => stripe.confirmCardSetup(clientSecret, { payment_method: paymentMethodId }),
        setDefault: (body) => setDefault(body).unwrap(),
        refetchCards: async () => {
          dispatch(paymentsApi.util.invalidateTags(['PaymentMethods', 'Me']));
          return fetchCards();
        },
        markPaymentMethodAdded,
        notify: (message, type) => dispatch(showSnackbar({ message, type })),
      };
      const phone = me.data?.phoneNumber ? `${me.data.phoneNumber.countryCode}${me.data.phoneNumber.nationalNumber}` : undefined;
      return addCard({ values, card, email: me.data?.email, phone }, deps);
    },
    [stripe, elements, dispatch, me.data, updateName, register, createCustomer, createSetupIntent, setDefault],
  );

  return { run, ready };
}
