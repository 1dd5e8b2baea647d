//! `/stored-account`: the CreditCard Wallet. Without a wallet, the intro; with one, the balance,
//! the wallet card and the auto-load amount, with Edit, Top-up and Close Wallet. `?mode=create`
//! and `?mode=edit` show the wallet form (with `refer=true`, `close-on-created=true` and
//! `return-to=<path>` for the create flow's options). The insufficient-funds, top-up and
//! failed-payment dialogs live here (spec §2, §4, §8).
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { formatMoney } from '../../../lib/format/money';
import { useGoBack } from '../../../lib/routing/useGoBack';
import { AUTO_TOP_UP_THRESHOLD, cardTitle, PaymentDialogs, WalletForm } from '../../payments';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { useDeleteStoredAccountMutation, useStoredAccountQuery, useWalletQuery, type StoredAccount } from '../../../lib/api/payments';
import { DIALOG, dialogOpened, showSnackbar } from '../../../lib/ui/uiSlice';
import { WalletIntro } from '../components/WalletIntro';
import { SETTINGS, useCreateWallet, useEditWallet } from '../model/flows';
import { BackControl } from '../../../components/BackControl';
import '../wallet.css';

export const CLOSED_MESSAGE = 'Your CreditCard Wallet has been closed.';

/** Only paths of this app: `return-to` never leads elsewhere. */
function safeReturn(path: string | null): string | null {
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}

export function StoredAccountPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const account = useStoredAccountQuery();
  const mode = params.get('mode');
  const returnTo = safeReturn(params.get('return-to'));

  const closeForm = () => {
    if (returnTo) void navigate(returnTo, { replace: true });
    else setParams({}, { replace: true });
  };

  let screen;
  if (account.isLoading) screen = <p className="page muted">Loading…</p>;
  else if (mode === 'create')
    screen = <CreateWallet closeOnCreated={params.get('close-on-created') === 'true'} refer={params.get('refer') === 'true'} onClose={closeForm} />;
  else if (mode === 'edit' && account.data?.active) screen = <EditWallet account={account.data} onClose={closeForm} />;
  else if (account.data?.active) screen = <WalletDetails account={account.data} />;
  else if (account.isError) screen = <p className="page muted">Your CreditCard Wallet could not be loaded.</p>;
  else screen = <WalletIntro onCreate={() => setParams({ mode: 'create' })} />;

  return (
    <>
      {screen}
      <PaymentDialogs />
    </>
  );
}

function CreateWallet({ closeOnCreated, refer, onClose }: { closeOnCreated: boolean; refer: boolean; onClose: () => void }) {
  const { submit, submitting } = useCreateWallet({ closeOnCreated, refer, onClose });
  return <WalletForm mode="create" submitting={submitting} onSubmit={(values) => void submit(values)} onClose={onClose} />;
}

function EditWallet({ account, onClose }: { account: StoredAccount; onClose: () => void }) {
  const { submit, submitting } = useEditWallet();
  return (
    <WalletForm
      mode="edit"
      initialCardId={account.paymentMethodId}
      initialAmount={account.autoToppingUpAmount}
      submitting={submitting}
      onSubmit={(values) => void submit(values)}
      onClose={onClose}
    />
  );
}

function WalletDetails({ account }: { account: StoredAccount }) {
  const dispatch = useAppDispatch();
  const goBack = useGoBack(SETTINGS);
  const [, setParams] = useSearchParams();
  const wallet = useWalletQuery();
  const [closeWallet, closing] = useDeleteStoredAccountMutation();
  const [confirming, setConfirming] = useState(false);
  const balance = wallet.data?.balance ?? account.balance;

  const close = async () => {
    const result = await closeWallet();
    setConfirming(false);
    if ('error' in result) dispatch(showSnackbar({ message: firstErrorMessage(result.error, SERVER_ERROR_MESSAGE), type: 'error' }));
    else dispatch(showSnackbar({ message: CLOSED_MESSAGE, type: 'info' }));
  };

  return (
    <main className="page wallet-details">
      <header className="wallet-header">
        <BackControl onClick={goBack} />
        <h1>CreditCard Wallet</h1>
      </header>
      <section className="card" aria-label="Balance">
        <p className="muted">Balance</p>
        <p className="wallet-balance" data-testid="wallet-balance">
          {formatMoney(balance)}
        </p>
      </section>
      <dl className="wallet-facts card">
        <div className="wallet-facts__row">
          <dt>Wallet card</dt>
          <dd data-testid="wallet-card">{account.last4 ? cardTitle({ brand: account.brand ?? 'Card', last4: account.last4 }) : '—'}</dd>
        </div>
        <div className="wallet-facts__row">
          <dt>Auto-load amount</dt>
          <dd data-testid="wallet-auto-load">{formatMoney(account.autoToppingUpAmount)}</dd>
        </div>
        <p className="muted">Transferred from the wallet card whenever the balance falls under {formatMoney(AUTO_TOP_UP_THRESHOLD)}.</p>
      </dl>
      <div className="wallet-actions">
        <PrimaryButton onClick={() => dispatch(dialogOpened(DIALOG.topUpStoredAccount))}>Top-up</PrimaryButton>
        <PrimaryButton variant="secondary" onClick={() => setParams({ mode: 'edit' })}>
          Edit
        </PrimaryButton>
        <PrimaryButton variant="secondary" onClick={() => setConfirming(true)}>
          Close Wallet
        </PrimaryButton>
        <Link to="/transaction-info" className="link">
          Transactions
        </Link>
      </div>
      <ConfirmDialog
        isOpen={confirming}
        title="Close CreditCard Wallet?"
        subTitle={`Auto-load stops. Your balance of ${formatMoney(balance)} stays yours and pays for your next purchases.`}
        buttons={[
          { text: 'Close Wallet', onClick: () => void close(), isHighlighted: true, disabled: closing.isLoading },
          { text: 'Cancel', onClick: () => setConfirming(false) },
        ]}
      />
    </main>
  );
}

