//! Log in with a username or e-mail; returns to the page the visitor came from. Links to the
//! forgotten-username and forgotten-password screens. A deleted account (403 `account_deleted`)
//! shows the server's message and offers 'Recover Account' with the values just typed.
import { useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage, isDefinitive } from '../../../lib/api/errors';
import type { TokenPair } from '../../../lib/api/types';
import { returnPath } from '../../../lib/routing/accessTable';
import { lazyResolver } from '../../../lib/validation/lazyResolver';
import { MESSAGES } from '../../../lib/validation/messages';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useLoginMutation } from '../api/authApi';
import { useRecoverAccountMutation } from '../api/recoveryApi';
import type { LogInValues } from '../validation/schemas';
import { RECOVERY_PATHS } from './recoveryPaths';
import { reportError } from './RecoveryShared';

export const ACCOUNT_DELETED_CODE = 'account_deleted';
export const ACCOUNT_RECOVERED = 'Your account has been recovered.';

/** The code of the first error of a failed call. */
const logInFormResolver = lazyResolver<LogInValues>(() => import('../validation/logInResolver').then((m) => m.logInResolver));

function firstErrorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object' || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (!data || typeof data !== 'object' || !('errors' in data)) return undefined;
  const first: unknown = Array.isArray(data.errors) ? data.errors[0] : undefined;
  if (!first || typeof first !== 'object' || !('code' in first)) return undefined;
  return typeof first.code === 'string' ? first.code : undefined;
}

/** A deleted account's log-in: the server's message and the values that proved the password. */
interface Deleted {
  message: string;
  credentials: LogInValues;
}

export function LogInPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [login, state] = useLoginMutation();
  const [recover, recovering] = useRecoverAccountMutation();
  const [deleted, setDeleted] = useState<Deleted | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<LogInValues>({
    resolver: logInFormResolver,
    defaultValues: { username: '', password: '' },
  });

  const signIn = (tokens: TokenPair) => {
    dispatch(tokensReceived(tokens));
    navigate(returnPath(location.state), { replace: true });
  };

  // A second press while the form is still being checked (before the request marks the button
  // busy) sends nothing: one log-in per press of the user's, one session.
  const sending = useRef(false);
  const logIn = async (values: LogInValues) => {
    if (sending.current) return;
    sending.current = true;
    setDeleted(null);
    const result = await login(values).finally(() => {
      sending.current = false;
    });
    if ('error' in result) {
      if (errorStatus(result.error) === 403 && firstErrorCode(result.error) === ACCOUNT_DELETED_CODE) {
        setDeleted({ message: firstErrorMessage(result.error, ''), credentials: values });
        return;
      }
      // Only the server's refusal speaks of what was typed; a failed server or a lost connection
      // says so, and a right password is never called wrong.
      if (!isDefinitive(result.error)) return reportError(dispatch, result.error);
      const byField = fieldErrors(result.error);
      if (byField.username) setError('username', { message: byField.username });
      setError('password', { message: byField.password ?? firstErrorMessage(result.error, MESSAGES.password) });
      return;
    }
    signIn(result.data);
  };
  const submit = (event: FormEvent) => handleSubmit(logIn)(event);

  const recoverAccount = async () => {
    if (!deleted) return;
    const result = await recover(deleted.credentials);
    if ('error' in result) return reportError(dispatch, result.error);
    dispatch(showSnackbar({ message: ACCOUNT_RECOVERED, type: 'success' }));
    signIn(result.data);
  };

  return (
    <main className="page">
      <h1>Log In</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Username or Email" autoComplete="username" {...register('username')} error={formState.errors.username?.message} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          {...register('password')}
          error={formState.errors.password?.message}
        />
        {deleted && (
          <>
            <InfoBanner type="attention" title={deleted.message} />
            <PrimaryButton onClick={() => void recoverAccount()} loading={recovering.isLoading}>
              Recover Account
            </PrimaryButton>
          </>
        )}
        <PrimaryButton type="submit" variant={deleted ? 'secondary' : 'primary'} loading={state.isLoading}>
          Log In
        </PrimaryButton>
      </form>
      <p className="recovery__links">
        <Link to={RECOVERY_PATHS.username}>Forgot Username?</Link>
        <Link to={RECOVERY_PATHS.password}>Forgot Password?</Link>
      </p>
      <p className="page__footer">
        New to Evidentia? <Link to="/sign-up">Sign Up</Link>
      </p>
    </main>
  );
}
