//! The CreditCard Wallet intro (spec §2): the benefits and the two steps (pick a card, then the
//! auto-transfer amount for when the balance falls under $5.00); 'Create CreditCard Wallet' leads
//! to the wallet form; closing calls the supplied close handler, or goes back.
import { useGoBack } from '../../../lib/routing/useGoBack';
import { PrimaryButton } from '../../../components/PrimaryButton';
import '../wallet.css';

interface Props {
  onCreate: () => void;
  onClose?: () => void;
}

export function WalletIntro({ onCreate, onClose }: Props) {
  const goBack = useGoBack('/dashboard/settings');
  return (
    <main className="page wallet-intro">
      <header className="wallet-header">
        <button type="button" className="wallet-header__close" aria-label="Close" onClick={onClose ?? goBack}>
          ×
        </button>
        <span className="wallet-header__title">CreditCard Wallet</span>
      </header>
      <h1>Create Your CreditCard Wallet</h1>
      <ul className="wallet-benefits" aria-label="Benefits">
        <li>Save an extra 10% on service fees with every payment from your wallet.</li>
        <li>Save the card processing fee of each payment: your wallet pays, not your card.</li>
        <li>Payments are taken from your wallet balance first, and from your card only when the balance is short.</li>
        <li>Never run dry: your wallet tops itself up when its balance falls under $5.00.</li>
      </ul>
      <ol className="wallet-steps" aria-label="Two steps">
        <li>
          <strong>Pick a card</strong>
          <span className="muted">The card that funds your wallet.</span>
        </li>
        <li>
          <strong>Set the auto-transfer amount</strong>
          <span className="muted">Transferred from your card when the balance falls under $5.00.</span>
        </li>
      </ol>
      <PrimaryButton onClick={onCreate}>Create CreditCard Wallet</PrimaryButton>
    </main>
  );
}
