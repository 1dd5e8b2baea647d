//! `/organization-sharing/verification/:folderId?link=TOKEN` (public-only): an invited contributor
//! proves their e-mail before adding files to an organization folder. The e-mail (spec §5 Email)
//! gets a 6-digit code; the checked code answers the contribution token, kept in sessionStorage
//! (model/token.ts), and the folder opens. A link that has expired, was revoked, is used up or is
//! unknown shows the server's message and nothing else.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ConfirmationCodeInput } from '../../../components/ConfirmationCodeInput';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage, hasErrorCode, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { email } from '../../../lib/validation/rules';
import { useCheckContributionCodeMutation, useSendContributionCodeMutation, type ContributionCodeSent } from '../api/contributionApi';
import { codeSentMessage, FAILED_MESSAGE, NO_LINK, PROVE_EMAIL_TEXT, PROVE_EMAIL_TITLE } from '../model/messages';
import { folderPath, rememberedLink, rememberLink, saveContribution } from '../model/token';
import '../contribution.css';

/** The codes of a link the server refuses (400); an unknown link is a 404. */
export const LINK_ERROR_CODES = ['link_expired', 'link_revoked', 'link_used_up'] as const;

const emailSchema = z.object({ email });
type EmailValues = z.infer<typeof emailSchema>;

/** The link's refusal in the server's words, or undefined when `error` is not about the link. */
function linkRefusal(error: unknown): string | undefined {
  const status = errorStatus(error);
  if (status === 404) return firstErrorMessage(error, 'This link is not valid.');
  if (status === 400 && LINK_ERROR_CODES.some((code) => hasErrorCode(error, code))) return firstErrorMessage(error, FAILED_MESSAGE);
  return undefined;
}

export function ContributionVerificationPage() {
  const { folderId = '' } = useParams();
  const [params] = useSearchParams();
  const link = params.get('link') ?? rememberedLink(folderId);
  const navigate = useNavigate();
  const [sendCode, sending] = useSendContributionCodeMutation();
  const [checkCode, checking] = useCheckContributionCodeMutation();
  const [sent, setSent] = useState<(ContributionCodeSent & { email: string }) | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const form = useForm<EmailValues>({ resolver: zodResolver(emailSchema), defaultValues: { email: '' }, mode: 'onTouched' });

  const send = form.handleSubmit(async ({ email: address }) => {
    if (!link) return;
    setFailure(undefined);
    const result = await sendCode({ link, email: address.trim() });
    if ('error' in result) {
      const refused = linkRefusal(result.error);
      if (refused) {
        setRefusal(refused);
        return;
      }
      const status = errorStatus(result.error);
      const fieldMessage = fieldErrors(result.error).email;
      if (fieldMessage) form.setError('email', { message: fieldMessage }, { shouldFocus: true });
      // The base query already shows the generic message for a 5xx answer.
      else setFailure(status !== undefined && status >= 500 ? SERVER_ERROR_MESSAGE : firstErrorMessage(result.error, FAILED_MESSAGE));
      return;
    }
    rememberLink(folderId, link);
    setCode('');
    setCodeError(undefined);
    setSent({ ...result.data, email: address.trim() });
  });

  const confirm = async () => {
    if (!sent) return;
    if (!/^\d{6}$/.test(code)) {
      setCodeError('Enter the 6-digit code.');
      return;
    }
    setFailure(undefined);
    const result = await checkCode({ codeId: sent.codeId, confirmationCode: code });
    if ('error' in result) {
      const refused = linkRefusal(result.error);
      if (refused && errorStatus(result.error) !== 404) {
        setRefusal(refused);
        return;
      }
      const status = errorStatus(result.error);
      if (status !== undefined && status >= 500) return;
      // Spec §5: a message containing 'incorrect' highlights the field.
      setCodeError(fieldErrors(result.error).confirmation_code ?? firstErrorMessage(result.error, FAILED_MESSAGE));
      return;
    }
    const { contributionToken, folderId: provenFolder, expiresAt } = result.data;
    saveContribution({ folderId: provenFolder, token: contributionToken, expiresAt });
    if (link) rememberLink(provenFolder, link);
    void navigate(folderPath(provenFolder), { replace: true });
  };

  if (!link || refusal) {
    return (
      <main className="page contribution">
        <h1>{PROVE_EMAIL_TITLE}</h1>
        <InfoBanner type="error" title={refusal ?? NO_LINK} />
      </main>
    );
  }

  return (
    <main className="page contribution">
      <h1>{PROVE_EMAIL_TITLE}</h1>
      {!sent ? (
        <form className="contribution__form" onSubmit={(e) => void send(e)} noValidate>
          <p className="muted">{PROVE_EMAIL_TEXT}</p>
          <TextField label="Email" type="email" autoComplete="email" maxLength={250} {...form.register('email')} error={form.formState.errors.email?.message} />
          {failure && <InfoBanner type="error" title={failure} />}
          <PrimaryButton type="submit" loading={sending.isLoading}>
            Send Code
          </PrimaryButton>
        </form>
      ) : (
        <form
          className="contribution__form"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm();
          }}
          noValidate
        >
          <p className="muted" role="status">
            {codeSentMessage(sent.sentTo)}
          </p>
          <ConfirmationCodeInput
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError(undefined);
            }}
            error={codeError}
          />
          {failure && <InfoBanner type="error" title={failure} />}
          <PrimaryButton type="submit" loading={checking.isLoading}>
            Confirm
          </PrimaryButton>
          <button type="button" className="link contribution__again" onClick={() => setSent(null)}>
            Use another e-mail or send a new code
          </button>
        </form>
      )}
    </main>
  );
}
