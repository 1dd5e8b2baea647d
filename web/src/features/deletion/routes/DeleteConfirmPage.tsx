//! `/deleting-my-account-confirm` (signed in): the chosen reason, then the current password. The
//! password is checked for a password token, the account is deleted with the reason, and the
//! device forgets the session (the server already ended every one) and shows the start screen
//! with the date until which the account can be recovered. Without a chosen reason (the address
//! typed in), the reasons screen comes first.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type UseFormSetError } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { useAppDispatch } from '../../../lib/store/hooks';
import { logOut } from '../../../lib/session/logOut';
import type { AppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import type { DeleteAccountRequest } from '../../../lib/api/types';
import { START } from '../../../lib/routing/accessTable';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { requiredPassword } from '../../../lib/validation/rules';
import { useDeleteAccountMutation, useVerifyPasswordToDeleteMutation } from '../api/deletionApi';
import { choiceFrom, choiceState, deletedMessage, DELETION_PATHS, GRACE_PERIOD_DAYS, SETTINGS, type DeletionChoice } from '../model/choice';
import '../deletion.css';

export const NOT_DELETED = 'Your account was not deleted. Please try again.';

const passwordSchema = z.object({ password: requiredPassword });
type PasswordValues = z.infer<typeof passwordSchema>;

/**
 * A failed call: a password (or password token) error under the password field; anything else is
 * the first server message in the snackbar; a 5xx is left to the base query's generic message.
 */
function showFailure(error: unknown, setError: UseFormSetError<PasswordValues>, dispatch: AppDispatch) {
  if ((errorStatus(error) ?? 0) >= 500) return;
  const byField = fieldErrors(error);
  const onPassword = byField.password ?? byField.password_token;
  if (onPassword) setError('password', { message: onPassword }, { shouldFocus: true });
  else dispatch(showSnackbar({ message: firstErrorMessage(error, NOT_DELETED), type: 'error' }));
}

/** The deletion request of `choice`: details only when there are any. */
export function deleteRequest(choice: DeletionChoice, passwordToken: string): DeleteAccountRequest {
  return {
    reason_id: choice.reasonId,
    password_token: passwordToken,
    ...(choice.details ? { details: choice.details } : {}),
  };
}

export function DeleteConfirmPage() {
  const location = useLocation();
  const choice = choiceFrom(location.state);
  if (!choice) return <Navigate to={DELETION_PATHS.reasons} replace />;
  return <ConfirmForm choice={choice} />;
}

function ConfirmForm({ choice }: { choice: DeletionChoice }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [verify, verifying] = useVerifyPasswordToDeleteMutation();
  const [remove, removing] = useDeleteAccountMutation();
  const { register, handleSubmit, formState, setError } = useForm<PasswordValues>({
    resolver: zodResolver(passwordSchema),
    defaultValues: { password: '' },
  });

  const submit = handleSubmit(async ({ password }) => {
    const verified = await verify({ password });
    if ('error' in verified) return showFailure(verified.error, setError, dispatch);
    const deleted = await remove(deleteRequest(choice, verified.data.passwordToken));
    if ('error' in deleted) return showFailure(deleted.error, setError, dispatch);
    // Every session already ended on the server: only the device's state is left to forget.
    logOut(dispatch);
    dispatch(showSnackbar({ message: deletedMessage(deleted.data.recoverableUntil), type: 'info' }));
    navigate(START, { replace: true });
  });

  return (
    <main className="page">
      <h1>Delete Account</h1>
      <p>
        Reason: <strong>{choice.reasonTitle || choice.reasonId}</strong>
        {choice.details && <> ({choice.details})</>}
      </p>
      <p>Enter your password to delete your account. You can recover it within {GRACE_PERIOD_DAYS} days by logging in again.</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...register('password')}
          error={formState.errors.password?.message}
        />
        <PrimaryButton type="submit" variant="red" loading={verifying.isLoading || removing.isLoading || formState.isSubmitting}>
          Delete Account
        </PrimaryButton>
      </form>
      <button type="button" className="link" onClick={() => navigate(DELETION_PATHS.reasons, { state: choiceState(choice) })}>
        Back
      </button>
      <PrimaryButton variant="secondary" onClick={() => navigate(SETTINGS)}>
        Cancel
      </PrimaryButton>
    </main>
  );
}
