//! `/recovery/password`: the username (or e-mail) -> where the code goes (e-mail, or SMS when the
//! account has a phone; the account's communication method first) -> the 6-digit password_reset
//! code -> the new password twice. The reset answers with a session: the user is signed in and
//! lands on Home (decisions-recovery.md).
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmationCodeInput, JUST_ERROR } from '../../../components/ConfirmationCodeInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { fieldErrors } from '../../../lib/api/errors';
import type { RecoveryOptions } from '../../../lib/api/types';
import { HOME } from '../../../lib/routing/accessTable';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { MESSAGES, newPasswordPair } from '../../../lib/validation/rules';
import {
  useRecoveryOptionsMutation,
  useResetForgottenPasswordMutation,
  useSendPasswordResetCodeMutation,
  useVerifyPasswordResetCodeMutation,
  type ResetChannel,
} from '../api/recoveryApi';
import { NEW_CODE_SENT } from '../components/EmailCodeStep';
import { showServerErrors } from '../model/serverErrors';
import { ChoiceList, isServerFailure, reportError } from './RecoveryShared';

export const PASSWORD_CHANGED = 'Your password has been changed.';

export const accountSchema = z.object({ username: z.string().trim().min(1, MESSAGES.required) });
type AccountValues = z.infer<typeof accountSchema>;
type PasswordValues = z.infer<typeof newPasswordPair>;

type Step =
  | { name: 'account' }
  | { name: 'channel'; username: string; options: RecoveryOptions }
  | { name: 'code'; username: string; options: RecoveryOptions; channel: ResetChannel; sentTo: string }
  | { name: 'password'; username: string; options: RecoveryOptions; channel: ResetChannel; sentTo: string; verificationToken: string };

/** The account's communication method, unless it is SMS and the account has no phone. */
export function preferredChannel(options: RecoveryOptions): ResetChannel {
  return options.communicationMethod === 'sms' && options.phoneHint ? 'sms' : 'email';
}

export function RecoveryPassword() {
  const [step, setStep] = useState<Step>({ name: 'account' });
  return (
    <main className="page">
      <h1>Forgot Password?</h1>
      {step.name === 'account' && <AccountStep onFound={(username, options) => setStep({ name: 'channel', username, options })} />}
      {step.name === 'channel' && (
        <ChannelStep
          key={step.username}
          username={step.username}
          options={step.options}
          onSent={(channel, sentTo) => setStep({ ...step, name: 'code', channel, sentTo })}
          onBack={() => setStep({ name: 'account' })}
        />
      )}
      {step.name === 'code' && (
        <CodeStep
          username={step.username}
          channel={step.channel}
          sentTo={step.sentTo}
          onVerified={(verificationToken) => setStep({ ...step, name: 'password', verificationToken })}
          onBack={() => setStep({ name: 'channel', username: step.username, options: step.options })}
        />
      )}
      {step.name === 'password' && (
        <PasswordStep
          username={step.username}
          verificationToken={step.verificationToken}
          onBack={() => setStep({ name: 'channel', username: step.username, options: step.options })}
        />
      )}
      <p className="page__footer">
        <Link to="/log-in" className="link-block">
          Back to Log In
        </Link>
      </p>
    </main>
  );
}

function AccountStep({ onFound }: { onFound: (username: string, options: RecoveryOptions) => void }) {
  const dispatch = useAppDispatch();
  const [find, finding] = useRecoveryOptionsMutation();
  const { register, handleSubmit, formState, setError } = useForm<AccountValues>({
    resolver: zodResolver(accountSchema),
    defaultValues: { username: '' },
  });

  const submit = handleSubmit(async ({ username }) => {
    const found = await find({ username });
    if ('error' in found) return showServerErrors(found.error, { username: 'username' }, setError, dispatch);
    onFound(username, found.data);
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <p>Enter your username or e-mail address and we will send you a code to set a new password.</p>
      <TextField
        label="Username or Email"
        autoComplete="username"
        maxLength={250}
        {...register('username')}
        error={formState.errors.username?.message}
      />
      <PrimaryButton type="submit" loading={finding.isLoading || formState.isSubmitting}>
        Continue
      </PrimaryButton>
    </form>
  );
}

interface ChannelProps {
  username: string;
  options: RecoveryOptions;
  onSent: (channel: ResetChannel, sentTo: string) => void;
  onBack: () => void;
}

function ChannelStep({ username, options, onSent, onBack }: ChannelProps) {
  const dispatch = useAppDispatch();
  const [channel, setChannel] = useState<ResetChannel>(() => preferredChannel(options));
  const [send, sending] = useSendPasswordResetCodeMutation();
  const choices: { value: ResetChannel; label: string }[] = [{ value: 'email', label: `E-mail ${options.emailHint}` }];
  if (options.phoneHint) choices.push({ value: 'sms', label: `SMS ${options.phoneHint}` });

  const sendCode = async () => {
    const sent = await send({ username, channel });
    if ('error' in sent) return reportError(dispatch, sent.error);
    onSent(channel, sent.data.sentTo);
  };

  return (
    <>
      <ChoiceList legend="Where should we send the code?" name="channel" options={choices} value={channel} onChange={setChannel} />
      <PrimaryButton onClick={() => void sendCode()} loading={sending.isLoading}>
        Send Code
      </PrimaryButton>
      <button type="button" className="link" onClick={onBack}>
        Back
      </button>
    </>
  );
}

interface CodeProps {
  username: string;
  channel: ResetChannel;
  sentTo: string;
  onVerified: (verificationToken: string) => void;
  onBack: () => void;
}

function CodeStep({ username, channel, sentTo: firstSentTo, onVerified, onBack }: CodeProps) {
  const dispatch = useAppDispatch();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState(firstSentTo);
  const [verify, verifying] = useVerifyPasswordResetCodeMutation();
  const [send, sending] = useSendPasswordResetCodeMutation();

  const confirm = async () => {
    const verified = await verify({ username, code });
    if ('error' in verified) {
      const onField = fieldErrors(verified.error).confirmation_code;
      if (onField) setCodeError(onField);
      else if (!isServerFailure(verified.error)) {
        // Highlight the field and say why in the snackbar.
        setCodeError(JUST_ERROR);
        reportError(dispatch, verified.error);
      }
      return;
    }
    onVerified(verified.data.verificationToken);
  };

  const resend = async () => {
    const sent = await send({ username, channel });
    if ('error' in sent) return reportError(dispatch, sent.error);
    setSentTo(sent.data.sentTo);
    setCode('');
    setCodeError(undefined);
    dispatch(showSnackbar({ message: NEW_CODE_SENT, type: 'info' }));
  };

  return (
    <>
      <p>
        We sent a 6-digit code to <strong>{sentTo}</strong>.
      </p>
      <ConfirmationCodeInput
        value={code}
        onChange={(value) => {
          setCode(value);
          setCodeError(undefined);
        }}
        error={codeError}
      />
      <PrimaryButton onClick={() => void confirm()} disabled={code.length !== 6} loading={verifying.isLoading}>
        Confirm
      </PrimaryButton>
      <PrimaryButton variant="secondary" onClick={() => void resend()} loading={sending.isLoading}>
        Resend code
      </PrimaryButton>
      <button type="button" className="link" onClick={onBack}>
        Back
      </button>
    </>
  );
}

interface PasswordProps {
  username: string;
  verificationToken: string;
  onBack: () => void;
}

function PasswordStep({ username, verificationToken, onBack }: PasswordProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [reset, resetting] = useResetForgottenPasswordMutation();
  const { register, handleSubmit, formState, setError } = useForm<PasswordValues>({
    resolver: zodResolver(newPasswordPair),
    defaultValues: { newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async ({ newPassword }) => {
    const done = await reset({ username, verificationToken, newPassword });
    if ('error' in done) return showServerErrors(done.error, { new_password: 'newPassword' }, setError, dispatch);
    // The reset signed every other session out and answered with a new one for this device.
    dispatch(tokensReceived(done.data));
    dispatch(showSnackbar({ message: PASSWORD_CHANGED, type: 'success' }));
    navigate(HOME, { replace: true });
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        {...register('newPassword')}
        error={formState.errors.newPassword?.message}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        {...register('confirmPassword')}
        error={formState.errors.confirmPassword?.message}
      />
      <PrimaryButton type="submit" loading={resetting.isLoading || formState.isSubmitting}>
        Set Password
      </PrimaryButton>
      <button type="button" className="link" onClick={onBack}>
        Back
      </button>
    </form>
  );
}
