//! `/checkout?kind=storage_extension&folderId=&months=` and `/checkout?kind=sharing&folderId=`: the
//! breakdown and the way of paying — from the CreditCard Wallet (its total and what it saves in
//! dollars) or by card — then the purchase's call (stored-account/pay for storage, the folder's
//! share/ for a share, whose what and to whom is the sharing draft) with an Idempotency-Key kept
//! for the attempt, so a retry after no answer re-sends the same key. A 402 card_declined opens
//! the failed-payment dialog; the insufficient-funds dialog opens when the wallet's last auto
//! top-up failed (spec §2, §4, §7, §8).
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import type { RootState } from '../../../lib/store/hooks';
import { formatMoney } from '../../../lib/format/money';
import { cardTitle, PaymentDialogs, useAttempt } from '../../payments';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useFolderQuery } from '../../../lib/api/evidence';
import { alreadyReported, firstErrorMessage, hasErrorCode, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import {
  usePaymentMethodsQuery,
  usePayFromStoredAccountMutation,
  useSharingPriceQuery,
  useStoragePriceQuery,
  useStoredAccountQuery,
  type Breakdown,
} from '../../../lib/api/payments';
import { shareRequest, useShareFolderMutation } from '../../../lib/api/sharing';
import { isPayable, recipientText, selectDraftOf, shareDraftCleared, type CopyType, type SharingDraft } from '../../../lib/sharing/draft';
import { DIALOG, dialogClosed, dialogOpened, showSnackbar } from '../../../lib/ui/uiSlice';
import { BreakdownTable } from '../components/BreakdownTable';
import {
  checkoutUrl,
  extendStorageUrl,
  isDeclined,
  parsePurchase,
  recipientsUrl,
  shareFilesUrl,
  shareSuccessPath,
  successPath,
  totalOf,
  walletSavingLabel,
  type PayWith,
  type SharingPurchase,
  type StoragePurchase,
} from '../model/checkout';
import { BackControl } from '../../../components/BackControl';
import '../checkout.css';

/** Spec §8 'Expired storage': sharing an expired file is refused with an info message. */
const STORAGE_EXPIRED = 'storage_expired';

export function CheckoutPage() {
  const [params] = useSearchParams();
  const purchase = parsePurchase(params);
  if (!purchase) return <NothingToPay />;
  if (purchase.kind === 'sharing') return <SharingCheckout key={checkoutUrl(purchase)} purchase={purchase} />;
  return <StorageCheckout key={checkoutUrl(purchase)} purchase={purchase} />;
}

function NothingToPay({ back }: { back?: ReactNode }) {
  return (
    <main className="page checkout">
      <h1>Checkout</h1>
      <p className="muted">There is nothing to pay for.</p>
      {back ?? <Link to="/dashboard/my-files">My Files</Link>}
    </main>
  );
}

/** Where a paid purchase leads, or why it was not paid. */
type PayOutcome = { to: string; after?: () => void } | { error: unknown };

interface CheckoutProps {
  back: ReactNode;
  summary: ReactNode;
  price: { data?: Breakdown; isLoading: boolean; isError: boolean };
  /** This checkout's address: creating a wallet comes back here. */
  here: string;
  /** What is bought, as the request says it: a purchase started again re-sends the key of an
   * attempt whose outcome is unknown. */
  purchaseScope: string;
  paying: boolean;
  pay: (payWith: PayWith, idempotencyKey: string) => Promise<PayOutcome>;
}

function StorageCheckout({ purchase }: { purchase: StoragePurchase }) {
  const folder = useFolderQuery(purchase.folderId);
  const price = useStoragePriceQuery({ folder_id: purchase.folderId, months: purchase.months });
  const [pay, paying] = usePayFromStoredAccountMutation();
  return (
    <Checkout
      back={<BackControl to={extendStorageUrl(purchase.folderId)} label="Extend Storage Date" />}
      summary={
        <>
          {folder.data?.name ?? 'Folder'}: {purchase.months} {purchase.months === 1 ? 'month' : 'months'} more storage
        </>
      }
      price={price}
      here={checkoutUrl(purchase)}
      purchaseScope={checkoutUrl(purchase)}
      paying={paying.isLoading}
      pay={async (payWith, idempotencyKey) => {
        const result = await pay({ kind: purchase.kind, folder_id: purchase.folderId, months: purchase.months, pay_with: payWith, idempotencyKey });
        return result.data ? { to: successPath(result.data.transaction) } : { error: result.error };
      }}
    />
  );
}

function SharingCheckout({ purchase }: { purchase: SharingPurchase }) {
  const draft = useAppSelector(selectDraftOf(purchase.folderId));
  if (!isPayable(draft)) {
    // A new tab, or a share already paid for: the share screens put one together again.
    return <NothingToPay back={<Link to={shareFilesUrl(purchase.folderId)}>Share files</Link>} />;
  }
  return <ShareCheckout purchase={purchase} draft={draft} />;
}

const COPY_LABELS = { authenticated: 'Authenticated Copy', unauthenticated: 'Unauthenticated Copy' } as const;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function ShareCheckout({ purchase, draft }: { purchase: SharingPurchase; draft: SharingDraft & { copyType: CopyType } }) {
  const dispatch = useAppDispatch();
  const folder = useFolderQuery(purchase.folderId);
  const price = useSharingPriceQuery({ copy_type: draft.copyType, recipients: draft.recipients.length });
  const [share, paying] = useShareFolderMutation();
  const what = draft.wholeFolder ? 'the whole folder' : plural(draft.itemIds.length, 'file');
  return (
    <Checkout
      back={<BackControl to={recipientsUrl(purchase.folderId)} label="Recipients" />}
      summary={
        <>
          {folder.data?.name ?? 'Folder'}: {COPY_LABELS[draft.copyType]} of {what} for {plural(draft.recipients.length, 'recipient')}
          <span className="checkout-recipients" data-testid="checkout-recipients">
            {draft.recipients.map(recipientText).join(', ')}
          </span>
        </>
      }
      price={price}
      here={checkoutUrl(purchase)}
      purchaseScope={`${checkoutUrl(purchase)} ${JSON.stringify(shareRequest(draft, 'card'))}`}
      paying={paying.isLoading}
      pay={async (payWith, idempotencyKey) => {
        const result = await share({ folderId: purchase.folderId, body: shareRequest(draft, payWith), idempotencyKey });
        if (!result.data) return { error: result.error };
        const { share: made, transaction } = result.data;
        // Paid: nothing is being put together any more (cleared once checkout has been left).
        return { to: shareSuccessPath(purchase.folderId, made.id, transaction.id), after: () => dispatch(shareDraftCleared()) };
      }}
    />
  );
}

function Checkout({ back, summary, price, here, purchaseScope, paying, pay }: CheckoutProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const account = useStoredAccountQuery();
  const cards = usePaymentMethodsQuery();
  const [chosen, setChosen] = useState<PayWith | null>(null);
  const store = useStore<RootState>();

  // A failed-payment dialog left open by 'Change Card' belongs to the attempt that was declined.
  useEffect(() => {
    if (store.getState().ui.dialog === DIALOG.failedPayment) dispatch(dialogClosed());
  }, [store, dispatch]);

  const walletActive = Boolean(account.data?.active);
  const defaultCard = cards.data?.find((c) => c.defaultMethod) ?? null;
  const payWith: PayWith = chosen ?? (walletActive ? 'wallet' : 'card');
  // Another way of paying is another request: it has its own attempt.
  const attempt = useAttempt(`${purchaseScope} ${payWith}`);
  // Until the wallet and the cards are known, the way of paying is not settled.
  const settled = !account.isLoading && !cards.isLoading;
  const canPay = settled && Boolean(price.data) && (payWith === 'wallet' ? walletActive : Boolean(defaultCard));
  const walletSaving = price.data ? walletSavingLabel(price.data) : null;
  const createWallet = `/stored-account?mode=create&close-on-created=true&return-to=${encodeURIComponent(here)}`;

  const submit = async () => {
    const outcome = await pay(payWith, attempt.key());
    if ('to' in outcome) {
      attempt.settle();
      await navigate(outcome.to, { replace: true });
      outcome.after?.();
      return;
    }
    const { error } = outcome;
    if (isDefinitive(error)) attempt.settle();
    if (isDeclined(error)) dispatch(dialogOpened(DIALOG.failedPayment));
    else if (!alreadyReported(error)) {
      const type = hasErrorCode(error, STORAGE_EXPIRED) ? 'info' : 'error';
      dispatch(showSnackbar({ message: firstErrorMessage(error, SERVER_ERROR_MESSAGE), type }));
    }
  };

  return (
    <main className="page checkout">
      {back}
      <h1>Checkout</h1>
      <p className="muted checkout-summary">{summary}</p>
      {price.isLoading && <p className="muted">Calculating…</p>}
      {price.isError && <p className="muted">The price could not be calculated.</p>}
      {price.data && <BreakdownTable breakdown={price.data} via={payWith} />}

      <fieldset className="checkout-options">
        <legend className="muted">Pay with</legend>
        <label className={`checkout-option${payWith === 'wallet' ? ' checkout-option--chosen' : ''}${walletActive ? '' : ' checkout-option--disabled'}`}>
          <input type="radio" name="pay-with" value="wallet" checked={payWith === 'wallet'} disabled={!walletActive} onChange={() => setChosen('wallet')} />
          <span className="checkout-option__body">
            <span className="checkout-option__title">CreditCard Wallet</span>
            {walletActive && account.data ? (
              <span className="muted">Balance {formatMoney(account.data.balance)}</span>
            ) : (
              <Link to={createWallet}>Create CreditCard Wallet</Link>
            )}
            {walletSaving && <span className="checkout-option__badge">{walletSaving}</span>}
          </span>
          {price.data && <span className="checkout-option__amount" data-testid="option-wallet-total">{formatMoney(price.data.walletTotal)}</span>}
        </label>
        <label className={`checkout-option${payWith === 'card' ? ' checkout-option--chosen' : ''}${defaultCard ? '' : ' checkout-option--disabled'}`}>
          <input type="radio" name="pay-with" value="card" checked={payWith === 'card'} disabled={!defaultCard} onChange={() => setChosen('card')} />
          <span className="checkout-option__body">
            <span className="checkout-option__title">Credit Card</span>
            {defaultCard ? <span className="muted">{cardTitle(defaultCard)}</span> : <Link to="/payment-methods">Add Payment Method</Link>}
          </span>
          {price.data && <span className="checkout-option__amount" data-testid="option-card-total">{formatMoney(price.data.total)}</span>}
        </label>
      </fieldset>

      <PrimaryButton loading={paying} disabled={!canPay} onClick={() => void submit()}>
        {price.data ? `Pay ${formatMoney(totalOf(price.data, payWith))}` : 'Pay'}
      </PrimaryButton>

      <PaymentDialogs />
    </main>
  );
}
