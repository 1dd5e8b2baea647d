//! A new e-mail address (spec §5 Email): PATCH accounts/email/change/ with the password token mails
//! a code to the new address, the same call with the code changes it.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { useChangeEmailMutation } from '../api/accountApi';
import { CHANGED } from '../model/messages';
import { emailSchema, type EmailValues } from '../validation/account';
import { CodeStep } from './CodeStep';
import type { SensitiveFormProps } from './formProps';
import { useCodeChange } from './useCodeChange';

export function EmailChangeForm({ token, onTokenRefused, onDone }: SensitiveFormProps) {
  const [change] = useChangeEmailMutation();
  const { register, handleSubmit, formState, setError } = useForm<EmailValues>({
    resolver: zodResolver(emailSchema),
    defaultValues: { newEmail: '' },
    mode: 'onTouched',
  });
  const flow = useCodeChange({
    send: change,
    valueFields: { new_email: 'newEmail' },
    onValueError: (_field, message) => setError('newEmail', { message }, { shouldFocus: true }),
    onTokenRefused,
    onDone: () => onDone(CHANGED.email),
  });

  if (flow.sent) {
    return (
      <CodeStep
        sentTo={flow.sent.sentTo}
        error={flow.codeError}
        confirming={flow.busy === 'confirm'}
        resending={flow.busy === 'resend'}
        onConfirm={(code) => void flow.confirm(code)}
        onResend={() => void flow.resend()}
        onEdit={flow.clearCodeError}
        onBack={flow.back}
      />
    );
  }

  const submit = handleSubmit(async ({ newEmail }) => {
    const email = newEmail.trim();
    await flow.start({ new_email: email, password_token: token }, email);
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="New email"
        type="email"
        autoComplete="email"
        maxLength={250}
        autoFocus
        {...register('newEmail')}
        error={formState.errors.newEmail?.message}
      />
      <PrimaryButton type="submit" loading={flow.busy === 'start'}>
        Send code
      </PrimaryButton>
    </form>
  );
}
