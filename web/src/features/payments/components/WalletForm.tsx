//! The wallet form in its three modes (spec §2 "Wallet screen", §5 "Wallet forms"): a card picker
//! (the saved cards), the presets $10/$25/$50 and the custom amount dialog, the two authorisation
//! checkboxes of auto-load (create and edit), and the mode's button. It only collects the values;
//! the screens that use it run the flows.
import { useState } from 'react';
import { Link } from 'react-router';
import { usePaymentMethodsQuery } from '../../../lib/api/payments';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { AmountDialog } from './AmountDialog';
import { cardTitle } from '../model/cardTitle';
import { formatAmountLabel } from '../../../lib/format/money';
import { canSubmit, needsAuthorisations, PRESET_AMOUNTS, SUBMIT_LABEL, type WalletMode } from '../model/walletRules';
import { useEscape } from '../../../components/useEscape';
import '../payments.css';

export const WALLET_TITLES: Record<WalletMode, string> = {
  create: 'Create CreditCard Wallet',
  edit: 'Edit CreditCard Wallet',
  'top-up': 'Top-up CreditCard Wallet',
};

export interface WalletValues {
  cardId: string;
  /** Cents. */
  amount: number;
}

interface Props {
  mode: WalletMode;
  /** The card and amount to start from (edit: the wallet's own). */
  initialCardId?: string | null;
  initialAmount?: number | null;
  submitting: boolean;
  onSubmit: (values: WalletValues) => void;
  onClose: () => void;
}

function authorisationTexts(mode: WalletMode, amount: string): [string, string] {
  const first =
    mode === 'create'
      ? `I authorise Evidentia to charge ${amount} to the selected card now, and again whenever my CreditCard Wallet balance falls below $5.00.`
      : `I authorise Evidentia to charge ${amount} to the selected card whenever my CreditCard Wallet balance falls below $5.00.`;
  return [first, 'I authorise Evidentia to charge the selected card when my CreditCard Wallet balance does not cover a payment.'];
}

export function WalletForm({ mode, initialCardId = null, initialAmount = null, submitting, onSubmit, onClose }: Props) {
  useEscape(onClose);
  const cards = usePaymentMethodsQuery();
  const [chosenCard, setChosenCard] = useState<string | null>(initialCardId);
  const [amount, setAmount] = useState<number | null>(initialAmount);
  const [authorisations, setAuthorisations] = useState<[boolean, boolean]>([false, false]);
  const [customOpen, setCustomOpen] = useState(false);

  // Until the user picks one, the wallet's card, else the default card, else the only card.
  const list = cards.data ?? [];
  const cardId =
    chosenCard && list.some((c) => c.id === chosenCard)
      ? chosenCard
      : (list.find((c) => c.wallet && mode !== 'create') ?? list.find((c) => c.defaultMethod) ?? (list.length === 1 ? list[0] : undefined))?.id ?? null;
  const state = { cardId, amount, authorisations };
  const custom = amount !== null && !(PRESET_AMOUNTS as readonly number[]).includes(amount);
  const amountLabel = amount === null ? 'the chosen amount' : formatAmountLabel(amount);
  const texts = authorisationTexts(mode, amountLabel);

  return (
    <div className="wallet-screen" role="dialog" aria-modal="true" aria-labelledby="wallet-screen-title">
      <header className="wallet-screen__header">
        <button type="button" className="wallet-screen__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
        <h1 id="wallet-screen-title">{WALLET_TITLES[mode]}</h1>
      </header>

      <section aria-labelledby="wallet-card-title" className="wallet-section">
        <h2 id="wallet-card-title" className="wallet-section__title">
          {mode === 'top-up' ? 'Card to charge' : 'Wallet card'}
        </h2>
        {cards.isLoading && <p className="muted">Loading…</p>}
        {cards.isError && <p className="muted">Your cards could not be loaded.</p>}
        {cards.data?.length === 0 && (
          <p className="muted">
            No saved cards yet. <Link to="/payment-methods">Add Payment Method</Link>
          </p>
        )}
        <div role="radiogroup" aria-label="Card" className="wallet-cards">
          {list.map((card) => (
            <label key={card.id} className={`wallet-card${card.id === cardId ? ' wallet-card--chosen' : ''}`}>
              <input type="radio" name="wallet-card" value={card.id} checked={card.id === cardId} onChange={() => setChosenCard(card.id)} />
              <span className="wallet-card__title">{cardTitle(card)}</span>
              {card.defaultMethod && <span className="wallet-card__badge">Default</span>}
            </label>
          ))}
        </div>
      </section>

      <section aria-labelledby="wallet-amount-title" className="wallet-section">
        <h2 id="wallet-amount-title" className="wallet-section__title">
          {mode === 'top-up' ? 'Top-up amount' : 'Auto-load amount'}
        </h2>
        {mode !== 'top-up' && <p className="muted wallet-section__hint">Transferred to your wallet whenever its balance falls under $5.00.</p>}
        <div className="wallet-amounts" role="group" aria-label="Amount">
          {PRESET_AMOUNTS.map((preset) => (
            <button key={preset} type="button" className="wallet-amount" aria-pressed={amount === preset} onClick={() => setAmount(preset)}>
              {formatAmountLabel(preset)}
            </button>
          ))}
          <button type="button" className="wallet-amount" aria-pressed={custom} onClick={() => setCustomOpen(true)}>
            {custom && amount !== null ? formatAmountLabel(amount) : 'Custom'}
          </button>
        </div>
      </section>

      {needsAuthorisations(mode) && (
        <section aria-label="Authorisations" className="wallet-section wallet-authorisations">
          {texts.map((text, index) => (
            <label key={index} className="wallet-checkbox">
              <input
                type="checkbox"
                checked={authorisations[index]}
                onChange={(event) => {
                  const next: [boolean, boolean] = [...authorisations];
                  next[index] = event.target.checked;
                  setAuthorisations(next);
                }}
              />
              <span>{text}</span>
            </label>
          ))}
        </section>
      )}

      <PrimaryButton
        loading={submitting}
        disabled={!canSubmit(mode, state)}
        onClick={() => {
          if (cardId && amount !== null && canSubmit(mode, state)) onSubmit({ cardId, amount });
        }}
      >
        {SUBMIT_LABEL[mode]}
      </PrimaryButton>

      {customOpen && (
        <AmountDialog
          initial={custom ? amount : null}
          onApply={(cents) => {
            setAmount(cents);
            setCustomOpen(false);
          }}
          onCancel={() => setCustomOpen(false)}
        />
      )}
    </div>
  );
}
