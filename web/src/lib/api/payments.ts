//! The payments API (spec §7 "Payments", "Shareable codes" promo check, and the not-shown calls
//! of the add-card flow; paths in docs/decisions.md). Amounts are integer cents. Money-moving
//! calls carry an Idempotency-Key made once per user action (newIdempotencyKey) and re-sent on
//! retry, so a retried request never charges twice.
import type { Camelize } from '../case';
import { api } from './api';
import type { components } from './schema';

type Schemas = components['schemas'];
/** A generated response type with every field present (the gateway always sends them). */
type Answer<T> = Required<Camelize<T>>;

export type Card = Answer<Schemas['PaymentMethod']>;
export type StoredAccount = Answer<Schemas['StoredAccount']>;
export type Wallet = Answer<Schemas['Wallet']>;
export type Breakdown = Answer<Schemas['Breakdown']>;
export type StoragePrice = Answer<Schemas['StoragePrice']>;
export type Transaction = Answer<Schemas['Transaction']>;
/** One money movement of the transaction-info list; `card` is null when the wallet paid. */
export type Movement = Answer<Schemas['MoneyMovement']>;
export type Pricing = Answer<Schemas['Pricing']> & {
  storage: Answer<Schemas['StoragePricing']>;
  sharing: Answer<Schemas['SharingPricing']>;
};
export type PaymentsConfig = Answer<Schemas['PaymentsConfig']>;

/** Payment-intent actions (spec §7): 2 = create the wallet with the auto top-up amount, 4 = top up. */
export const ACTION_CREATE_WALLET = 2;
export const ACTION_TOP_UP = 4;

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

const idem = (key: string) => ({ 'Idempotency-Key': key });

export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    paymentsConfig: build.query<PaymentsConfig, void>({
      query: () => 'payments/config/',
    }),
    pricing: build.query<Pricing, void>({
      query: () => 'payments/pricing/',
    }),
    createStripeCustomer: build.mutation<{ stripeCustomerId: string }, void>({
      query: () => ({ url: 'payments/stripe-customer/create/', method: 'POST' }),
    }),
    updateCustomerName: build.mutation<{ firstName: string; lastName: string }, { first_name: string; last_name: string }>({
      query: (body) => ({ url: 'payments/stripe-customer/name/update/', method: 'PATCH', body }),
    }),
    registerPaymentMethod: build.mutation<{ paymentMethodId: string; fingerprint: string; brand: string; last4: string }, { payment_method_id: string }>({
      query: (body) => ({ url: 'payments/payment-method/register/', method: 'POST', body }),
    }),
    createSetupIntent: build.mutation<{ clientSecret: string }, { stripe_customer_id: string }>({
      query: (body) => ({ url: 'payments/stripe-setup-intent/create/', method: 'POST', body }),
    }),
    paymentMethods: build.query<Card[], void>({
      query: () => 'payments/payment-methods/get/',
      transformResponse: (body: { paymentMethods: Card[] }) => body.paymentMethods,
      providesTags: ['PaymentMethods'],
    }),
    paymentMethod: build.query<Card, string>({
      query: (id) => `payments/payment-method/${encodeURIComponent(id)}/retrieve/`,
      providesTags: ['PaymentMethods'],
    }),
    setDefaultPaymentMethod: build.mutation<Card[], { payment_method_id: string }>({
      query: (body) => ({ url: 'payments/payment-method/set-default/', method: 'POST', body }),
      transformResponse: (body: { paymentMethods: Card[] }) => body.paymentMethods,
      invalidatesTags: ['PaymentMethods', 'Me', 'StoredAccount'],
    }),
    removePaymentMethod: build.mutation<Card[], { payment_method_id: string }>({
      query: (body) => ({ url: 'payments/payment-method/remove/', method: 'POST', body }),
      transformResponse: (body: { paymentMethods: Card[] }) => body.paymentMethods,
      invalidatesTags: ['PaymentMethods', 'Me', 'StoredAccount'],
    }),
    storedAccount: build.query<StoredAccount, void>({
      query: () => 'payments/stored-account/get/',
      providesTags: ['StoredAccount'],
    }),
    updateStoredAccount: build.mutation<StoredAccount, { auto_topping_up_amount: number; payment_method_id: string }>({
      query: (body) => ({ url: 'payments/stored-account/update/', method: 'POST', body }),
      invalidatesTags: ['StoredAccount', 'Wallet', 'Me', 'PaymentMethods'],
    }),
    deleteStoredAccount: build.mutation<StoredAccount, void>({
      query: () => ({ url: 'payments/stored-account/delete/', method: 'DELETE' }),
      invalidatesTags: ['StoredAccount', 'Wallet', 'Me', 'PaymentMethods'],
    }),
    wallet: build.query<Wallet, void>({
      query: () => 'payments/evidentia-wallet/get/',
      providesTags: ['Wallet'],
    }),
    createPaymentIntent: build.mutation<
      { clientSecret: string; paymentIntentId: string },
      { payment_method_id: string; metadata: { action: number; amount: number }; idempotencyKey: string }
    >({
      query: ({ idempotencyKey, ...body }) => ({ url: 'payments/payment-intent/create/', method: 'POST', body, headers: idem(idempotencyKey) }),
    }),
    payFromStoredAccount: build.mutation<
      { transaction: Transaction; storedAccount: StoredAccount },
      { kind: 'storage_extension'; folder_id: string; months: number; pay_with: 'wallet' | 'card'; idempotencyKey: string }
    >({
      query: ({ idempotencyKey, ...body }) => ({ url: 'payments/stored-account/pay/', method: 'POST', body, headers: idem(idempotencyKey) }),
      invalidatesTags: (_r, _e, { folder_id }) => ['StoredAccount', 'Wallet', 'Me', 'Transactions', { type: 'Folder', id: folder_id }, { type: 'Folder', id: 'LIST' }],
    }),
    transactions: build.query<Transaction[], void>({
      query: () => 'payments/transactions/',
      transformResponse: (body: { transactions: Transaction[] }) => body.transactions,
      providesTags: ['Transactions'],
    }),
    movements: build.query<Movement[], void>({
      query: () => 'payments/transactions/',
      transformResponse: (body: { movements: Movement[] }) => body.movements,
      providesTags: ['Transactions'],
    }),
    transaction: build.query<Transaction, string>({
      query: (id) => `payments/transactions/${encodeURIComponent(id)}/`,
      providesTags: ['Transactions'],
    }),
    storagePrice: build.query<StoragePrice, { folder_id?: string; size_bytes?: number; months: number }>({
      query: (body) => ({ url: 'payments/storage-price-prolong/calculate/', method: 'POST', body }),
    }),
    sharingPrice: build.query<Breakdown, { copy_type: 'authenticated' | 'unauthenticated'; recipients: number }>({
      query: (body) => ({ url: 'payments/sharing-price/calculate/', method: 'POST', body }),
    }),
    checkPromoCode: build.mutation<{ amount: number }, { code: string; idempotencyKey: string }>({
      query: ({ idempotencyKey, code }) => ({ url: 'shareable-codes/promo-code/check/', method: 'POST', body: { code }, headers: idem(idempotencyKey) }),
      invalidatesTags: ['Wallet', 'StoredAccount', 'Me'],
    }),
  }),
});

export const {
  usePaymentsConfigQuery,
  usePricingQuery,
  useCreateStripeCustomerMutation,
  useUpdateCustomerNameMutation,
  useRegisterPaymentMethodMutation,
  useCreateSetupIntentMutation,
  usePaymentMethodsQuery,
  usePaymentMethodQuery,
  useSetDefaultPaymentMethodMutation,
  useRemovePaymentMethodMutation,
  useStoredAccountQuery,
  useUpdateStoredAccountMutation,
  useDeleteStoredAccountMutation,
  useWalletQuery,
  useCreatePaymentIntentMutation,
  usePayFromStoredAccountMutation,
  useTransactionsQuery,
  useMovementsQuery,
  useTransactionQuery,
  useStoragePriceQuery,
  useSharingPriceQuery,
  useCheckPromoCodeMutation,
} = paymentsApi;
