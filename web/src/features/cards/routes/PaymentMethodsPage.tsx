//! /payment-methods (spec §2 "Payment-method list"): the saved cards with brand, last four digits,
//! default and caption, each with its controls; 'Add Payment Method' (disabled offline) asks
//! first, then opens the add-card dialog; 'Card was added' once it is done.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { usePaymentMethodsQuery } from '../../../lib/api/payments';
import { useOnline } from '../../../lib/network/useOnline';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { AddCardDialog } from '../components/AddCardDialog';
import { BrandIcon } from '../components/BrandIcon';
import { CardActionSheet, type CardControls } from '../components/CardActionSheet';
import { brandIcon, cardCaption, cardTitle } from '../model/cards';
import { SETTINGS } from '../paths';
import { BackControl } from '../../../components/BackControl';
import '../cards.css';

export function PaymentMethodsPage() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const online = useOnline();
  const cards = usePaymentMethodsQuery();
  const [step, setStep] = useState<'none' | 'confirm' | 'add'>('none');
  const [controls, setControls] = useState<CardControls | null>(null);

  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(SETTINGS);
  };

  return (
    <main className="page cards-page">
      <header className="cards-page__bar">
        <BackControl onClick={back} />
        <h1>Payment Methods</h1>
      </header>
      {cards.isLoading && <p className="muted">Loading…</p>}
      {cards.isError && <p className="muted">The payment methods could not be loaded.</p>}
      {cards.data?.length === 0 && <p className="muted">No payment methods yet.</p>}
      <ul className="cards-list" aria-label="Payment methods">
        {cards.data?.map((card) => {
          const title = cardTitle(card);
          const caption = cardCaption(card);
          return (
            <li key={card.id} className="card cards-list__item" aria-label={title}>
              <BrandIcon brand={brandIcon(card.brand)} />
              <div className="cards-list__body">
                <span className="cards-list__title">
                  {title}
                  {card.defaultMethod && <span className="cards-list__default">Default</span>}
                </span>
                {caption && <span className="cards-list__caption">{caption}</span>}
              </div>
              <button
                type="button"
                className="cards-list__controls"
                aria-label={`Controls of ${title}`}
                onClick={() => setControls({ cardId: card.id, title, isDefault: card.defaultMethod })}
              >
                ⋮
              </button>
            </li>
          );
        })}
      </ul>
      <PrimaryButton disabled={!online} onClick={() => setStep('confirm')}>
        Add Payment Method
      </PrimaryButton>

      <ConfirmDialog
        isOpen={step === 'confirm'}
        title="Add Payment Method"
        subTitle="This payment method will be the default for credit card payments."
        buttons={[
          { text: 'Continue', isHighlighted: true, onClick: () => setStep('add') },
          { text: 'Cancel', onClick: () => setStep('none') },
        ]}
      />
      {step === 'add' && (
        <AddCardDialog
          onClose={() => setStep('none')}
          onSuccess={() => {
            setStep('none');
            dispatch(showSnackbar({ message: 'Card was added', type: 'info' }));
          }}
        />
      )}
      <CardActionSheet card={controls} onClose={() => setControls(null)} />
    </main>
  );
}
