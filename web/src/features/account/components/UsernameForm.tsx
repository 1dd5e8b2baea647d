//! A new username (spec §5 Username), saved with PATCH accounts/username/change/ and the password
//! token; a taken username is the server's message under the field.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useChangeUsernameMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { CHANGED, NOT_CHANGED } from '../model/messages';
import { usernameSchema, type UsernameValues } from '../validation/account';
import type { SensitiveFormProps } from './formProps';

export function UsernameForm({ token, onTokenRefused, onDone }: SensitiveFormProps) {
  const dispatch = useAppDispatch();
  const [change, changing] = useChangeUsernameMutation();
  const { register, handleSubmit, formState, setError } = useForm<UsernameValues>({
    resolver: zodResolver(usernameSchema),
    defaultValues: { newUsername: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async ({ newUsername }) => {
    const result = await change({ new_username: newUsername.trim(), password_token: token });
    if (!('error' in result)) return onDone(CHANGED.username);
    const failure = classifyFailure(result.error, { new_username: 'newUsername' }, NOT_CHANGED);
    if (failure.kind === 'password-token') onTokenRefused(failure.message);
    else if (failure.kind === 'fields') setError('newUsername', { message: failure.fields.newUsername }, { shouldFocus: true });
    else if (failure.kind === 'message') dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="New username"
        autoComplete="username"
        maxLength={20}
        autoFocus
        {...register('newUsername')}
        error={formState.errors.newUsername?.message}
      />
      <PrimaryButton type="submit" loading={changing.isLoading}>
        Save
      </PrimaryButton>
    </form>
  );
}
