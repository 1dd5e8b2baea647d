//! `/get-access-email/:folderToken/email/:emailToken`, the link in a recipient's message (open to
//! anyone): 'Send Code' sends a code to where the link was sent (sharing/code/send/ with the two
//! tokens) and says where it went; the 6-digit code ('999 999', spec §3, §5) is checked
//! (sharing/code/{codeId}/check/), its folder token kept as the persisted accessFolderToken (spec
//! §3 Login state), and the visitor goes on to /get-access-confirm.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmationCodeInput } from '../../../components/ConfirmationCodeInput';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { alreadyReported, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { folderTokenReceived } from '../../../lib/session/loginInfoSlice';
import { useCheckSharingCodeMutation, useSendSharingCodeMutation } from '../api/sharingApi';
import type { CodeSent } from '../api/types';
import { COPY_TYPE_LABELS, MESSAGES } from '../model/labels';
import { getAccessConfirmUrl } from '../model/paths';
import '../sharing.css';

/** The service's words for a link that no longer opens anything (sharing contract). */
export const LINK_INVALID = 'This link is no longer valid.';

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

export function GetAccessEmailPage() {
  const { folderToken = '', emailToken = '' } = useParams();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [send, sending] = useSendSharingCodeMutation();
  const [check, checking] = useCheckSharingCodeMutation();
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [sendError, setSendError] = useState<string>();

  const sendCode = async () => {
    setSendError(undefined);
    const result = await send({ t1: folderToken, t2: emailToken });
    if (result.data) {
      setSent(result.data);
      setCode('');
      setCodeError(undefined);
      return;
    }
    const error = result.error;
    setSendError(alreadyReported(error) ? SERVER_ERROR_MESSAGE : firstErrorMessage(error, MESSAGES.codeNotSent));
  };

  const checkCode = async () => {
    if (!sent) return;
    setCodeError(undefined);
    const result = await check({ codeId: sent.codeId, code });
    if (result.data) {
      dispatch(folderTokenReceived(result.data.accessFolderToken));
      void navigate(getAccessConfirmUrl(result.data.copyType), { replace: true });
      return;
    }
    const error = result.error;
    // Wrong (field confirmation_code), expired (code_expired), unknown: the service's message under the code.
    setCodeError(alreadyReported(error) ? SERVER_ERROR_MESSAGE : firstErrorMessage(error, MESSAGES.codeNotChecked));
  };

  return (
    <main className="page sharing">
      <h1>Get Access</h1>
      {!sent && (
        <>
          <p>Evidence was shared with you. To open it, we send a confirmation code to the address this link was sent to.</p>
          {sendError && <InfoBanner type="error" title={sendError} />}
          <PrimaryButton loading={sending.isLoading} onClick={() => void sendCode()}>
            Send Code
          </PrimaryButton>
        </>
      )}
      {sent && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void checkCode();
          }}
          noValidate
        >
          <p>
            We sent a code to <strong data-testid="code-sent-to">{sent.sentTo}</strong>. It is valid for {minutes(sent.expiresIn)} minutes and opens an{' '}
            {COPY_TYPE_LABELS[sent.copyType]}.
          </p>
          <ConfirmationCodeInput
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError(undefined);
            }}
            error={codeError}
          />
          <PrimaryButton type="submit" loading={checking.isLoading} disabled={code.length !== 6}>
            Confirm
          </PrimaryButton>
          {sendError && <InfoBanner type="error" title={sendError} />}
          <button type="button" className="link" disabled={sending.isLoading} onClick={() => void sendCode()}>
            Send a new code
          </button>
        </form>
      )}
    </main>
  );
}
