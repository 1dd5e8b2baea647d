//! The second step of an e-mail or phone change: the 6-digit code sent to the new address or number
//! (the shared confirmation code input, '999 999'), Confirm, 'Resend code' and Back.
import { useState } from 'react';
import { ConfirmationCodeInput } from '../../../components/ConfirmationCodeInput';
import { PrimaryButton } from '../../../components/PrimaryButton';

interface Props {
  /** Where the code went, as the server names it. */
  sentTo: string;
  error?: string;
  confirming: boolean;
  resending: boolean;
  onConfirm: (code: string) => void;
  onResend: () => void;
  /** The code is being edited: an old error no longer applies. */
  onEdit: () => void;
  onBack: () => void;
}

export function CodeStep({ sentTo, error, confirming, resending, onConfirm, onResend, onEdit, onBack }: Props) {
  const [code, setCode] = useState('');
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (code.length === 6) onConfirm(code);
      }}
    >
      <p className="account-sheet__hint">
        We sent a 6-digit code to <strong>{sentTo}</strong>.
      </p>
      <ConfirmationCodeInput
        value={code}
        onChange={(value) => {
          setCode(value);
          onEdit();
        }}
        error={error}
      />
      <PrimaryButton type="submit" disabled={code.length !== 6} loading={confirming}>
        Confirm
      </PrimaryButton>
      <PrimaryButton variant="secondary" onClick={onResend} loading={resending}>
        Resend code
      </PrimaryButton>
      <button type="button" className="link" onClick={onBack}>
        Back
      </button>
    </form>
  );
}
