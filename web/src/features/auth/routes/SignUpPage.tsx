//! Sign up as an individual: details, then the 6-digit code sent by e-mail, then the account is
//! created and the user lands on the dashboard (spec §2, §5; docs/decisions.md "Sign-up order").
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmationCodeInput } from '../../../components/ConfirmationCodeInput';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { HOME } from '../../../lib/routing/accessTable';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCheckAvailabilityMutation, useCreateAccountMutation, useSendCodeMutation, useVerifyCodeMutation } from '../api/authApi';
import { signUpSchema, type SignUpValues } from '../validation/schemas';

const TAKEN: Record<'email' | 'username' | 'phoneNumber', string> = {
  email: 'A user with that email already exists.',
  username: 'A user with that username already exists.',
  phoneNumber: 'A user with that phone number already exists.',
};

const SERVER_FIELDS: Record<string, keyof SignUpValues> = {
  email: 'email',
  username: 'username',
  phone_number: 'phoneNumber',
  password: 'password',
};

export function SignUpPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [checkAvailability, availability] = useCheckAvailabilityMutation();
  const [sendCode, sending] = useSendCodeMutation();
  const [verifyCode, verifying] = useVerifyCodeMutation();
  const [createAccount, creating] = useCreateAccountMutation();
  const form = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { username: '', email: '', countryCode: '+1', phoneNumber: '', password: '' },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, setValue, getValues, control } = form;
  const countryCode = useWatch({ control, name: 'countryCode' });
  const errors = formState.errors;

  const showServerErrors = (error: unknown) => {
    const byField = fieldErrors(error);
    let placed = false;
    for (const [field, message] of Object.entries(byField)) {
      const name = SERVER_FIELDS[field];
      if (name) {
        setError(name, { message });
        placed = true;
      }
    }
    if (!placed) dispatch(showSnackbar({ message: firstErrorMessage(error, 'Something went wrong. Please try again.'), type: 'error' }));
  };

  const submitDetails = handleSubmit(async (values) => {
    const phone = { country_code: values.countryCode, national_number: values.phoneNumber };
    const free = await checkAvailability({ email: values.email, username: values.username, phone_number: phone });
    if ('error' in free) return showServerErrors(free.error);
    let taken = false;
    for (const field of ['email', 'username'] as const) {
      if (free.data[field] === false) {
        setError(field, { message: TAKEN[field] });
        taken = true;
      }
    }
    if (free.data.phoneNumber === false) {
      setError('phoneNumber', { message: TAKEN.phoneNumber });
      taken = true;
    }
    if (taken) return;
    const sent = await sendCode({ email: values.email });
    if ('error' in sent) return showServerErrors(sent.error);
    setCode('');
    setCodeError(undefined);
    setStep('code');
  });

  const confirm = async () => {
    const values = getValues();
    const verified = await verifyCode({ email: values.email, code });
    if ('error' in verified) {
      setCodeError(firstErrorMessage(verified.error, 'just_error'));
      return;
    }
    const created = await createAccount({
      username: values.username,
      email: values.email,
      password: values.password,
      phone_number: { country_code: values.countryCode, national_number: values.phoneNumber },
      verification_token: verified.data.verificationToken,
    });
    if ('error' in created) {
      setStep('details');
      showServerErrors(created.error);
      return;
    }
    dispatch(tokensReceived(created.data));
    navigate(HOME, { replace: true });
  };

  const resend = async () => {
    const sent = await sendCode({ email: getValues('email') });
    if ('error' in sent) setCodeError(firstErrorMessage(sent.error, 'just_error'));
    else dispatch(showSnackbar({ message: 'A new code was sent.', type: 'info' }));
  };

  if (step === 'code') {
    return (
      <main className="page">
        <h1>Confirm your e-mail</h1>
        <p>
          We sent a 6-digit code to <strong>{getValues('email')}</strong>.
        </p>
        <ConfirmationCodeInput value={code} onChange={(value) => { setCode(value); setCodeError(undefined); }} error={codeError} />
        <PrimaryButton onClick={() => void confirm()} disabled={code.length !== 6} loading={verifying.isLoading || creating.isLoading}>
          Confirm
        </PrimaryButton>
        <PrimaryButton variant="secondary" onClick={() => void resend()} loading={sending.isLoading}>
          Send a new code
        </PrimaryButton>
        <button type="button" className="link" onClick={() => setStep('details')}>
          Back
        </button>
      </main>
    );
  }

  return (
    <main className="page">
      <h1>Sign Up</h1>
      <form onSubmit={(e) => void submitDetails(e)} noValidate>
        <TextField label="Username" autoComplete="username" maxLength={20} {...register('username')} error={errors.username?.message} />
        <TextField label="Email" type="email" autoComplete="email" maxLength={250} {...register('email')} error={errors.email?.message} />
        <PhoneInput
          countryCode={countryCode}
          onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
          onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
          countryError={errors.countryCode?.message}
          numberError={errors.phoneNumber?.message}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          {...register('password')}
          error={errors.password?.message}
        />
        <PrimaryButton type="submit" loading={availability.isLoading || sending.isLoading || formState.isSubmitting}>
          Continue
        </PrimaryButton>
      </form>
      <p className="page__footer">
        Already have an account? <Link to="/log-in">Log In</Link>
      </p>
    </main>
  );
}
