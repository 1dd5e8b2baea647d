//! The e-mail confirmation step of the account forms: the 6-digit code sent to `email` (purpose
//! sign_up), 'Send a new code', and Back. A verified code's token goes to `onVerified`.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmationCodeInput, JUST_ERROR } from '../../../components/ConfirmationCodeInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, isDefinitive } from '../../../lib/api/errors';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useSendCodeMutation, useVerifyCodeMutation } from '../api/authApi';
import { reportError } from '../routes/RecoveryShared';

export const NEW_CODE_SENT = 'A new code was sent.';

interface Props {
  email: string;
  onVerified: (verificationToken: string) => Promise<void>;
  onBack: () => void;
  /** The call the token unlocks is running. */
  finishing: boolean;
}

export function EmailCodeStep({ email, onVerified, onBack, finishing }: Props) {
  const dispatch = useAppDispatch();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [verifyCode, verifying] = useVerifyCodeMutation();
  const [sendCode, sending] = useSendCodeMutation();

  const confirm = async () => {
    const verified = await verifyCode({ email, code });
    if ('error' in verified) {
      // The field is marked only when the server refused the code; a failure of the call says so.
      if (isDefinitive(verified.error)) setCodeError(firstErrorMessage(verified.error, JUST_ERROR));
      else reportError(dispatch, verified.error);
      return;
    }
    await onVerified(verified.data.verificationToken);
  };

  const resend = async () => {
    const sent = await sendCode({ email });
    if ('error' in sent) {
      if (isDefinitive(sent.error)) setCodeError(firstErrorMessage(sent.error, JUST_ERROR));
      else reportError(dispatch, sent.error);
    }
    else dispatch(showSnackbar({ message: NEW_CODE_SENT, type: 'info' }));
  };

  return (
    <>
      <h1>Confirm your e-mail</h1>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>.
      </p>
      <ConfirmationCodeInput
        value={code}
        onChange={(value) => {
          setCode(value);
          setCodeError(undefined);
        }}
        error={codeError}
      />
      <PrimaryButton onClick={() => void confirm()} disabled={code.length !== 6} loading={verifying.isLoading || finishing}>
        Confirm
      </PrimaryButton>
      <PrimaryButton variant="secondary" onClick={() => void resend()} loading={sending.isLoading}>
        Send a new code
      </PrimaryButton>
      <button type="button" className="link" onClick={onBack}>
        Back
      </button>
    </>
  );
}
