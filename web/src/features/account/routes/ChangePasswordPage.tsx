//! `/change-password`: the current password (required only), the new one (every spec §5 password
//! rule) and its confirmation. The current password is exchanged for a password token, then
//! POST accounts/password/reset/ sets the new one and answers new tokens for this session (every
//! other session is signed out); they replace the stored ones and the user returns to Settings.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useChangePasswordMutation, useVerifyCurrentPasswordMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { CHANGED, NOT_CHANGED } from '../model/messages';
import { SETTINGS } from '../paths';
import { changePasswordSchema, type ChangePasswordValues } from '../validation/account';
import { BackControl } from '../../../components/BackControl';
import '../account.css';

export function ChangePasswordPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [verify, verifying] = useVerifyCurrentPasswordMutation();
  const [change, changing] = useChangePasswordMutation();
  const { register, handleSubmit, formState, setError } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    mode: 'onTouched',
  });
  const errors = formState.errors;

  const report = (error: unknown, fields: Record<string, keyof ChangePasswordValues>) => {
    const failure = classifyFailure(error, fields, NOT_CHANGED);
    if (failure.kind === 'fields') {
      for (const [field, message] of Object.entries(failure.fields))
        setError(field as keyof ChangePasswordValues, { message }, { shouldFocus: true });
    } else if (failure.kind !== 'reported') dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  };

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    const verified = await verify({ password: currentPassword });
    if (verified.error !== undefined) return report(verified.error, { password: 'currentPassword' });
    const changed = await change({ new_password: newPassword, password_token: verified.data.passwordToken });
    if (changed.error !== undefined) return report(changed.error, { new_password: 'newPassword' });
    dispatch(tokensReceived(changed.data));
    dispatch(showSnackbar({ message: CHANGED.password, type: 'success' }));
    navigate(SETTINGS);
  });

  return (
    <main className="page account">
      <BackControl to={SETTINGS} label="Settings" />
      <h1>Change Password</h1>
      <p className="muted">
        8 to 32 characters with an uppercase letter, a lowercase letter, a digit and one of #?!@$%^&amp;*-. Other devices will be signed
        out.
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...register('currentPassword')}
          error={errors.currentPassword?.message}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          {...register('newPassword')}
          error={errors.newPassword?.message}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
        <PrimaryButton type="submit" loading={verifying.isLoading || changing.isLoading}>
          Change Password
        </PrimaryButton>
      </form>
    </main>
  );
}
