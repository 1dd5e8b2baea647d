//! The promo dialog 'Enter Promo Code' and its confirmation '{amount} Promo Applied' (spec §2,
//! §4 "Promo flow", §8 "Promo code rejected").
import { useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { newIdempotencyKey, useCheckPromoCodeMutation } from '../../../lib/api/payments';
import { isPromoComplete, maskPromo, PROMO_MASK, promoCode } from '../model/promo';

interface PromoProps {
  isOpen: boolean;
  /** Apply succeeded: the amount credited, in cents. */
  onApplied: (amount: number) => void;
  onProceedWithout: () => void;
  onCancel: () => void;
  busy?: boolean;
}

export function PromoDialog({ isOpen, onApplied, onProceedWithout, onCancel, busy = false }: PromoProps) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  // One key per code the user applies, re-sent when the same code is applied again (a retry).
  const [key, setKey] = useState<{ code: string; key: string }>();
  const [check, state] = useCheckPromoCodeMutation();

  const apply = async () => {
    const code = promoCode(value);
    const idempotency = key?.code === code ? key : { code, key: newIdempotencyKey() };
    setKey(idempotency);
    setError(undefined);
    try {
      const { amount } = await check({ code, idempotencyKey: idempotency.key }).unwrap();
      setValue('');
      onApplied(amount);
    } catch (e) {
      setError(firstErrorMessage(e, SERVER_ERROR_MESSAGE));
    }
  };

  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="Enter Promo Code"
      buttons={[
        {
          text: 'Apply Promo Code',
          isHighlighted: true,
          disabled: !isPromoComplete(value) || busy,
          loading: state.isLoading,
          onClick: () => void apply(),
        },
        { text: 'Proceed without Promo Code', disabled: state.isLoading || busy, onClick: onProceedWithout },
        { text: 'Cancel', disabled: state.isLoading, onClick: onCancel },
      ]}
    >
      <div className={`field${error ? ' field--error' : ''}`}>
        <label htmlFor={id}>Promo Code</label>
        <input
          id={id}
          value={value}
          placeholder={PROMO_MASK.replace(/A/g, '_')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={PROMO_MASK.length}
          aria-invalid={Boolean(error)}
          onChange={(e) => {
            setValue(maskPromo(e.target.value));
            setError(undefined);
          }}
        />
        {error && (
          <span className="field__error" role="alert">
            {error}
          </span>
        )}
      </div>
    </ConfirmDialog>
  );
}

/** '$5' for 500 cents, '$5.50' for 550. */
export function formatPromoAmount(cents: number): string {
  const dollars = cents / 100;
  return `$${Number.isInteger(dollars) ? dollars.toString() : dollars.toFixed(2)}`;
}

interface AppliedProps {
  isOpen: boolean;
  amount: number;
  onProceed: () => void;
  busy?: boolean;
}

export function PromoAppliedDialog({ isOpen, amount, onProceed, busy = false }: AppliedProps) {
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={`${formatPromoAmount(amount)} Promo Applied`}
      subTitle="Your credit card won't be charged until your Evidentia Wallet balance expires."
      buttons={[{ text: 'Proceed', isHighlighted: true, disabled: busy, onClick: onProceed }]}
    />
  );
}
