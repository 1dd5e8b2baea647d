//! First and last name (spec §5 Name: required, 2 to 150), saved with
//! PATCH accounts/first-last-names/update/; no password needed.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useUpdateNamesMutation } from '../api/accountApi';
import { classifyFailure } from '../model/failures';
import { CHANGED, NOT_CHANGED } from '../model/messages';
import { namesSchema, type NamesValues } from '../validation/account';
import type { EditFormProps } from './formProps';

const FIELDS = { first_name: 'firstName', last_name: 'lastName' } as const;

interface Props extends EditFormProps {
  initial: NamesValues;
}

export function NamesForm({ initial, onDone }: Props) {
  const dispatch = useAppDispatch();
  const [update, updating] = useUpdateNamesMutation();
  const { register, handleSubmit, formState, setError } = useForm<NamesValues>({
    resolver: zodResolver(namesSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });

  const submit = handleSubmit(async ({ firstName, lastName }) => {
    const result = await update({ first_name: firstName.trim(), last_name: lastName.trim() });
    if (!('error' in result)) return onDone(CHANGED.names);
    const failure = classifyFailure(result.error, FIELDS, NOT_CHANGED);
    if (failure.kind === 'fields') {
      for (const [field, message] of Object.entries(failure.fields)) setError(field as keyof NamesValues, { message });
    } else if (failure.kind !== 'reported') dispatch(showSnackbar({ message: failure.message, type: 'error' }));
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="First name"
        autoComplete="given-name"
        maxLength={151}
        {...register('firstName')}
        error={formState.errors.firstName?.message}
      />
      <TextField
        label="Last name"
        autoComplete="family-name"
        maxLength={151}
        {...register('lastName')}
        error={formState.errors.lastName?.message}
      />
      <PrimaryButton type="submit" loading={updating.isLoading}>
        Save
      </PrimaryButton>
    </form>
  );
}
