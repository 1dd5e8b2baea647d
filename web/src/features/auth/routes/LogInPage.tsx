//! Log in with a username or e-mail; returns to the page the visitor came from.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { HOME, type FromState } from '../../../lib/routing/accessTable';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { useLoginMutation } from '../api/authApi';
import { logInSchema, type LogInValues } from '../validation/schemas';

export function LogInPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [login, state] = useLoginMutation();
  const { register, handleSubmit, formState, setError } = useForm<LogInValues>({
    resolver: zodResolver(logInSchema),
    defaultValues: { username: '', password: '' },
  });

  const submit = handleSubmit(async (values) => {
    const result = await login(values);
    if ('error' in result) {
      const byField = fieldErrors(result.error);
      if (byField.username) setError('username', { message: byField.username });
      setError('password', { message: byField.password ?? firstErrorMessage(result.error, 'Wrong Password. Please try again') });
      return;
    }
    dispatch(tokensReceived(result.data));
    const from = (location.state as FromState | null)?.from;
    navigate(from ?? HOME, { replace: true });
  });

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
        <PrimaryButton type="submit" loading={state.isLoading}>
          Log In
        </PrimaryButton>
      </form>
      <p className="page__footer">
        New to Evidentia? <Link to="/sign-up">Sign Up</Link>
      </p>
    </main>
  );
}
