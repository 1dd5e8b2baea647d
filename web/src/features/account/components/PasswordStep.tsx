//! Asking for the current password before a sensitive change (the password field with only the
//! required rule, spec §5): it is exchanged for a password token; a wrong password is the server's
//! message under the field.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import type { PasswordToken } from '../../../lib/api/types';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useVerifyCurrentPasswordMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { currentPasswordSchema, type CurrentPasswordValues } from '../validation/account';

// Not given by the spec (decisions of the account screens).
export const PASSWORD_NOT_CHECKED = 'Your password could not be checked. Please try again.';

interface Props {
  onVerified: (token: PasswordToken) => void;
  /** Why the password is asked again (the server refused an expired token). */
  notice?: string;
}

export function PasswordStep({ onVerified, notice }: Props) {
  const dispatch = useAppDispatch();
  const [verify, verifying] = useVerifyCurrentPasswordMutation();
  const { register, handleSubmit, formState, setError } = useForm<CurrentPasswordValues>({
    resolver: zodResolver(currentPasswordSchema),
    defaultValues: { password: '' },
  });

  const submit = handleSubmit(async ({ password }) => {
    const result = await verify({ password });
    if ('data' in result && result.data) {
      onVerified(result.data);
      return;
    }
    const failure = classifyFailure(result.error, { password: 'password' }, PASSWORD_NOT_CHECKED);
    if (failure.kind === 'fields' && failure.fields.password)
      setError('password', { message: failure.fields.password }, { shouldFocus: true });
    else if (failure.kind === 'message' || failure.kind === 'password-token')
      dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <p className="muted account-sheet__hint">{notice ?? 'For your security, enter your current password first.'}</p>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        autoFocus
        {...register('password')}
        error={formState.errors.password?.message}
      />
      <PrimaryButton type="submit" loading={verifying.isLoading}>
        Continue
      </PrimaryButton>
    </form>
  );
}
