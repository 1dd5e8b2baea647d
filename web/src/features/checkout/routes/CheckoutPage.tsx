//! `/checkout?kind=storage_extension&folderId=&months=`: the breakdown and the way of paying —
//! from the CreditCard Wallet (its total and what it saves in dollars) or by card — then stored-account/pay with an
//! Idempotency-Key kept for the attempt, so a retry after no answer re-sends the same key. A 402
//! card_declined opens the failed-payment dialog; the insufficient-funds dialog opens when the
//! wallet's last auto top-up failed (spec §2, §4, §7, §8).
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useStore } from 'react-redux';
import { useAppDispatch } from '../../../app/hooks';
import type { RootState } from '../../../app/store';
import { alreadyReported, isDefinitive, useAttempt } from '../../../components/payments/attempt';
import { FailedPaymentDialog } from '../../../components/payments/FailedPaymentDialog';
import { InsufficientFundsDialog } from '../../../components/payments/InsufficientFundsDialog';
import { formatMoney } from '../../../components/payments/money';
import { TopUpStoredAccountDialog } from '../../../components/payments/TopUpStoredAccountDialog';
import { cardTitle } from '../../../components/payments/WalletForm';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useFolderQuery } from '../../../lib/api/evidence';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { usePaymentMethodsQuery, usePayFromStoredAccountMutation, useStoragePriceQuery, useStoredAccountQuery } from '../../../lib/api/payments';
import { DIALOG, dialogClosed, dialogOpened, showSnackbar } from '../../../lib/ui/uiSlice';
import { BreakdownTable } from '../components/BreakdownTable';
import { checkoutUrl, extendStorageUrl, isDeclined, parsePurchase, successPath, totalOf, walletSavingLabel, type PayWith, type Purchase } from '../model/checkout';
import { BackControl } from '../../../components/BackControl';
import '../checkout.css';

export function CheckoutPage() {
  const [params] = useSearchParams();
  const purchase = parsePurchase(params);
  if (!purchase) {
    return (
      <main className="page checkout">
        <h1>Checkout</h1>
        <p className="muted">There is nothing to pay for.</p>
        <Link to="/dashboard/my-files">My Files</Link>
      </main>
    );
  }
  return <Checkout key={checkoutUrl(purchase)} purchase={purchase} />;
}

function Checkout({ purchase }: { purchase: Purchase }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const folder = useFolderQuery(purchase.folderId);
  const price = useStoragePriceQuery({ folder_id: purchase.folderId, months: purchase.months });
  const account = useStoredAccountQuery();
  const cards = usePaymentMethodsQuery();
  const [pay, paying] = usePayFromStoredAccountMutation();
  const attempt = useAttempt();
  const [chosen, setChosen] = useState<PayWith | null>(null);
  const store = useStore<RootState>();

  // A failed-payment dialog left open by 'Change Card' belongs to the attempt that was declined.
  useEffect(() => {
    if (store.getState().ui.dialog === DIALOG.failedPayment) dispatch(dialogClosed());
  }, [store, dispatch]);

  const walletActive = Boolean(account.data?.active);
  const defaultCard = cards.data?.find((c) => c.defaultMethod) ?? null;
  const payWith: PayWith = chosen ?? (walletActive ? 'wallet' : 'card');
  // Until the wallet and the cards are known, the way of paying is not settled.
  const settled = !account.isLoading && !cards.isLoading;
  const canPay = settled && Boolean(price.data) && (payWith === 'wallet' ? walletActive : Boolean(defaultCard));
  const walletSaving = price.data ? walletSavingLabel(price.data) : null;
  const here = checkoutUrl(purchase);
  const createWallet = `/stored-account?mode=create&close-on-created=true&return-to=${encodeURIComponent(here)}`;

  const choose = (via: PayWith) => {
    // Another way of paying is another request: it gets its own key.
    if (via !== payWith) attempt.settle();
    setChosen(via);
  };

  const submit = async () => {
    const result = await pay({
      kind: purchase.kind,
      folder_id: purchase.folderId,
      months: purchase.months,
      pay_with: payWith,
      idempotencyKey: attempt.key(),
    });
    if ('data' in result && result.data) {
      attempt.settle();
      void navigate(successPath(result.data.transaction), { replace: true });
      return;
    }
    const error = 'error' in result ? result.error : undefined;
    if (isDefinitive(error)) attempt.settle();
    if (isDeclined(error)) dispatch(dialogOpened(DIALOG.failedPayment));
    else if (!alreadyReported(error)) dispatch(showSnackbar({ message: firstErrorMessage(error, SERVER_ERROR_MESSAGE), type: 'error' }));
  };

  return (
    <main className="page checkout">
      <BackControl to={extendStorageUrl(purchase.folderId)} label="Extend Storage Date" />
      <h1>Checkout</h1>
      <p className="muted">
        {folder.data?.name ?? 'Folder'}: {purchase.months} {purchase.months === 1 ? 'month' : 'months'} more storage
      </p>
      {price.isLoading && <p className="muted">Calculating…</p>}
      {price.isError && <p className="muted">The price could not be calculated.</p>}
      {price.data && <BreakdownTable breakdown={price.data} via={payWith} />}

      <fieldset className="checkout-options">
        <legend className="muted">Pay with</legend>
        <label className={`checkout-option${payWith === 'wallet' ? ' checkout-option--chosen' : ''}${walletActive ? '' : ' checkout-option--disabled'}`}>
          <input type="radio" name="pay-with" value="wallet" checked={payWith === 'wallet'} disabled={!walletActive} onChange={() => choose('wallet')} />
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
          <input type="radio" name="pay-with" value="card" checked={payWith === 'card'} disabled={!defaultCard} onChange={() => choose('card')} />
          <span className="checkout-option__body">
            <span className="checkout-option__title">Credit Card</span>
            {defaultCard ? <span className="muted">{cardTitle(defaultCard)}</span> : <Link to="/payment-methods">Add Payment Method</Link>}
          </span>
          {price.data && <span className="checkout-option__amount" data-testid="option-card-total">{formatMoney(price.data.total)}</span>}
        </label>
      </fieldset>

      <PrimaryButton loading={paying.isLoading} disabled={!canPay} onClick={() => void submit()}>
        {price.data ? `Pay ${formatMoney(totalOf(price.data, payWith))}` : 'Pay'}
      </PrimaryButton>

      <InsufficientFundsDialog />
      <TopUpStoredAccountDialog />
      <FailedPaymentDialog />
    </main>
  );
}
