//! The custom amount dialog of the wallet form (spec §2, §5 "Wallet amount"): a decimal with up to
//! 2 places from $10 to $100, with the spec's messages word for word.
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { TextField } from '../../../components/TextField';
import { dollarsToCents } from '../../../lib/format/money';
import { acceptsAmountInput, amountError, amountInput } from '../model/walletRules';

interface Props {
  /** Cents, to start from. */
  initial: number | null;
  onApply: (cents: number) => void;
  onCancel: () => void;
}

export function AmountDialog({ initial, onApply, onCancel }: Props) {
  const [text, setText] = useState(initial === null ? '' : (initial / 100).toFixed(initial % 100 === 0 ? 0 : 2));
  const [touched, setTouched] = useState(false);
  const error = amountError(text);

  const apply = () => {
    setTouched(true);
    const cents = dollarsToCents(text);
    if (!error && cents !== undefined) onApply(cents);
  };

  return (
    <ConfirmDialog
      isOpen
      title="Custom Amount"
      subTitle="From $10 to $100."
      buttons={[
        { text: 'Apply', onClick: apply, isHighlighted: true, disabled: touched && Boolean(error) },
        { text: 'Cancel', onClick: onCancel },
      ]}
    >
      <TextField
        label="Amount, $"
        inputMode="decimal"
        autoFocus
        value={text}
        error={touched ? error : undefined}
        onChange={(event) => {
          const typed = amountInput(event.target.value);
          if (!acceptsAmountInput(typed)) return;
          setText(typed);
          setTouched(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
      />
    </ConfirmDialog>
  );
}
