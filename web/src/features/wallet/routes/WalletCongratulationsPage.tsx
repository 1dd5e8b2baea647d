//! `/wallet-congratulations`: after a first wallet is created (spec §4 "Wallet create flow" step
//! 3): the balance, which includes the one-time benefit (the first card's $0.50 authorisation kept
//! as credit), and the auto-load amount.
import { Link } from 'react-router';
import { formatMoney } from '../../../lib/format/money';
import { AUTO_TOP_UP_THRESHOLD } from '../../payments';
import { usePricingQuery, useStoredAccountQuery, useWalletQuery } from '../../../lib/api/payments';
import '../wallet.css';

export function WalletCongratulationsPage() {
  const wallet = useWalletQuery();
  const account = useStoredAccountQuery();
  const pricing = usePricingQuery();
  return (
    <main className="page wallet-congrats">
      <h1>Congratulations!</h1>
      <p>Your CreditCard Wallet has been created.</p>
      {wallet.data && (
        <p>
          Balance: <strong data-testid="wallet-balance">{formatMoney(wallet.data.balance)}</strong>
        </p>
      )}
      {pricing.data && (
        <p className="muted">
          The {formatMoney(pricing.data.firstAuthorisation)} authorisation of your first card stays yours: it is part of your balance, a one-time benefit.
        </p>
      )}
      {account.data?.active && (
        <p className="muted">
          {formatMoney(account.data.autoToppingUpAmount)} is transferred to your wallet whenever its balance falls under {formatMoney(AUTO_TOP_UP_THRESHOLD)}. Your payments
          from the wallet save 10% on service fees and the card processing fee.
        </p>
      )}
      <Link to="/stored-account" className="btn btn--primary">
        Go to my CreditCard Wallet
      </Link>
      <Link to="/dashboard/home" className="btn btn--secondary">
        Done
      </Link>
    </main>
  );
}
