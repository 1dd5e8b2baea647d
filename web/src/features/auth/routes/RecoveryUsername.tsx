//! `/recovery/username`: the username is sent to the account's e-mail address or, by SMS, to its
//! phone number; the screen then says where it went and leads to log in.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { countryCode, email, phoneNumber } from '../../../lib/validation/rules';
import { useSendUsernameByEmailMutation, useSendUsernameByPhoneMutation } from '../api/recoveryApi';
import { showServerErrors } from '../model/serverErrors';
import { ChoiceList } from './RecoveryShared';

export const byEmailSchema = z.object({ email });
type ByEmailValues = z.infer<typeof byEmailSchema>;

export const byPhoneSchema = z.object({ countryCode, phoneNumber });
type ByPhoneValues = z.infer<typeof byPhoneSchema>;

type Method = 'email' | 'phone';

const METHODS = [
  { value: 'email' as const, label: 'By E-mail' },
  { value: 'phone' as const, label: 'By Phone' },
];

export const sentMessage = (sentTo: string) => `We sent your username to ${sentTo}.`;

export function RecoveryUsername() {
  const navigate = useNavigate();
  const [method, setMethod] = useState<Method>('email');
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo !== null) {
    return (
      <main className="page">
        <h1>Forgot Username?</h1>
        <p role="status">{sentMessage(sentTo)}</p>
        <PrimaryButton onClick={() => navigate('/log-in')}>Log in</PrimaryButton>
      </main>
    );
  }

  return (
    <main className="page">
      <h1>Forgot Username?</h1>
      <ChoiceList legend="Where should we send your username?" name="method" options={METHODS} value={method} onChange={setMethod} />
      {method === 'email' ? <ByEmail onSent={setSentTo} /> : <ByPhone onSent={setSentTo} />}
      <p className="page__footer">
        <Link to="/log-in" className="link-block">
          Back to Log In
        </Link>
      </p>
    </main>
  );
}

function ByEmail({ onSent }: { onSent: (sentTo: string) => void }) {
  const dispatch = useAppDispatch();
  const [send, sending] = useSendUsernameByEmailMutation();
  const { register, handleSubmit, formState, setError } = useForm<ByEmailValues>({
    resolver: zodResolver(byEmailSchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (values) => {
    const sent = await send({ email: values.email });
    if ('error' in sent) return showServerErrors(sent.error, { email: 'email' }, setError, dispatch);
    onSent(sent.data.sentTo);
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        maxLength={250}
        {...register('email')}
        error={formState.errors.email?.message}
      />
      <PrimaryButton type="submit" loading={sending.isLoading || formState.isSubmitting}>
        Send Username
      </PrimaryButton>
    </form>
  );
}

function ByPhone({ onSent }: { onSent: (sentTo: string) => void }) {
  const dispatch = useAppDispatch();
  const [send, sending] = useSendUsernameByPhoneMutation();
  const { handleSubmit, formState, setError, setValue, control } = useForm<ByPhoneValues>({
    resolver: zodResolver(byPhoneSchema),
    defaultValues: { countryCode: '+1', phoneNumber: '' },
  });
  const code = useWatch({ control, name: 'countryCode' });

  const submit = handleSubmit(async (values) => {
    const sent = await send({ phone_number: { country_code: values.countryCode, national_number: values.phoneNumber } });
    if ('error' in sent) return showServerErrors(sent.error, { phone_number: 'phoneNumber' }, setError, dispatch);
    onSent(sent.data.sentTo);
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <PhoneInput
        countryCode={code}
        onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
        onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
        countryError={formState.errors.countryCode?.message}
        numberError={formState.errors.phoneNumber?.message}
      />
      <PrimaryButton type="submit" loading={sending.isLoading || formState.isSubmitting}>
        Send Username
      </PrimaryButton>
    </form>
  );
}
