//! The card action sheet (spec §2): 'Set as Default for Payments with Credit Card' (or 'Default
//! for Payments' when it already is) and 'Remove', each confirmed by its dialog; failures as
//! spec §8 says.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BottomSheet } from '../../../components/BottomSheet';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorStatus, firstErrorMessage } from '../../../lib/api/errors';
import { useRemovePaymentMethodMutation, useSetDefaultPaymentMethodMutation } from '../../../lib/api/payments';
import { showSnackbar, type Severity } from '../../../lib/ui/uiSlice';

export const CARD_ACTION_MESSAGES = {
  notChanged: 'Payment method was not changed.',
  notRemoved: "Cannot remove user's default payment method. Set another method as default and try again.",
} as const;

export interface CardControls {
  cardId: string;
  title: string;
  isDefault: boolean;
}

interface Props {
  card: CardControls | null;
  onClose: () => void;
}

export function CardActionSheet({ card, onClose }: Props) {
  const dispatch = useAppDispatch();
  const [confirm, setConfirm] = useState<'default' | 'remove' | null>(null);
  const [setDefault, defaultState] = useSetDefaultPaymentMethodMutation();
  const [remove, removeState] = useRemovePaymentMethodMutation();

  const fail = (error: unknown, fallback: string, type: Severity) => {
    const status = errorStatus(error);
    // The base query has already told a 5xx.
    if (status !== undefined && status >= 500) return;
    dispatch(showSnackbar({ message: firstErrorMessage(error, fallback), type }));
  };

  const done = () => {
    setConfirm(null);
    onClose();
  };

  const changeDefault = async () => {
    if (!card) return;
    try {
      await setDefault({ payment_method_id: card.cardId }).unwrap();
    } catch (error) {
      fail(error, CARD_ACTION_MESSAGES.notChanged, 'info');
    }
    done();
  };

  const removeCard = async () => {
    if (!card) return;
    try {
      await remove({ payment_method_id: card.cardId }).unwrap();
    } catch (error) {
      fail(error, CARD_ACTION_MESSAGES.notRemoved, 'error');
    }
    done();
  };

  return (
    <>
      <BottomSheet open={Boolean(card) && confirm === null} title={card?.title ?? ''} onClose={onClose}>
        <div className="card-actions">
          <button type="button" className="card-actions__item" disabled={card?.isDefault} onClick={() => setConfirm('default')}>
            {card?.isDefault ? 'Default for Payments' : 'Set as Default for Payments with Credit Card'}
          </button>
          <button type="button" className="card-actions__item card-actions__item--danger" onClick={() => setConfirm('remove')}>
            Remove
          </button>
        </div>
      </BottomSheet>
      <ConfirmDialog
        isOpen={confirm === 'default'}
        title="Change Payment Method?"
        subTitle={card?.title}
        buttons={[
          { text: 'Continue', isHighlighted: true, disabled: defaultState.isLoading, onClick: () => void changeDefault() },
          { text: 'Cancel', disabled: defaultState.isLoading, onClick: done },
        ]}
      />
      <ConfirmDialog
        isOpen={confirm === 'remove'}
        title="Remove Credit Card?"
        subTitle={card?.title}
        buttons={[
          { text: 'Remove', isHighlighted: true, disabled: removeState.isLoading, onClick: () => void removeCard() },
          { text: 'Cancel', disabled: removeState.isLoading, onClick: done },
        ]}
      />
    </>
  );
}
