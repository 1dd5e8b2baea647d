//! `/join-organization/:code` (public-only): the invite's organization and role, then an account
//! made inside that organization. Invited by e-mail, the e-mail is the invited one (read-only) and
//! needs no code; invited by SMS, the phone is the invited one (read-only) and the e-mail is
//! confirmed with the sign-up code first (contract "Organizations"). An unknown, expired or used
//! code shows the server's message and the way back to the start screen.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { InfoBanner } from '../../../components/InfoBanner';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import type { InvitePreview } from '../../../lib/api/types';
import { roleLabel } from '../../../lib/organization/roles';
import { HOME, START } from '../../../lib/routing/accessTable';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { useCheckAvailabilityMutation, useInvitePreviewQuery, useJoinOrganizationMutation, useSendCodeMutation } from '../api/authApi';
import { EmailCodeStep } from '../components/EmailCodeStep';
import { showServerErrors, takenFields } from '../model/serverErrors';
import { joinSchema, type JoinValues } from '../validation/organization';

const SERVER_FIELDS = {
  username: 'username',
  email: 'email',
  phone_number: 'phoneNumber',
  password: 'password',
  first_name: 'firstName',
  last_name: 'lastName',
} as const satisfies Record<string, keyof JoinValues>;

export function JoinOrganizationPage() {
  // Codes are 8 characters A-Z/2-9: a code typed in lower case is the same code.
  const code = (useParams().code ?? '').trim().toUpperCase();
  const preview = useInvitePreviewQuery(code);

  if (preview.isLoading) {
    return (
      <main className="page">
        <p>Loading…</p>
      </main>
    );
  }
  if (!preview.data) {
    return (
      <main className="page">
        <h1>Join an Organization</h1>
        <InfoBanner type="error" title={firstErrorMessage(preview.error, SERVER_ERROR_MESSAGE)} />
        <Link className="btn btn--secondary" to={START}>
          Go to the Start Page
        </Link>
      </main>
    );
  }
  return <JoinForm code={code} invite={preview.data} />;
}

function JoinForm({ code, invite }: { code: string; invite: InvitePreview }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const bySms = invite.channel === 'sms';
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [submitted, setSubmitted] = useState<JoinValues | null>(null);
  const [checkAvailability, availability] = useCheckAvailabilityMutation();
  const [sendCode, sending] = useSendCodeMutation();
  const [joinOrganization, joining] = useJoinOrganizationMutation();
  const { register, handleSubmit, formState, setError, setValue, control } = useForm<JoinValues>({
    resolver: zodResolver(joinSchema),
    defaultValues: {
      username: '',
      email: bySms ? '' : (invite.email ?? ''),
      countryCode: (bySms ? invite.phoneNumber?.countryCode : undefined) ?? '+1',
      phoneNumber: (bySms ? invite.phoneNumber?.nationalNumber : undefined) ?? '',
      password: '',
      firstName: '',
      lastName: '',
    },
    mode: 'onTouched',
  });
  const countryCode = useWatch({ control, name: 'countryCode' });
  const errors = formState.errors;
  const placeErrors = (error: unknown) => showServerErrors(error, SERVER_FIELDS, setError, dispatch);

  const join = async (values: JoinValues, verificationToken?: string) => {
    const joined = await joinOrganization({
      code,
      username: values.username,
      email: values.email,
      phone_number: { country_code: values.countryCode, national_number: values.phoneNumber },
      password: values.password,
      ...(values.firstName ? { first_name: values.firstName } : {}),
      ...(values.lastName ? { last_name: values.lastName } : {}),
      ...(verificationToken ? { verification_token: verificationToken } : {}),
    });
    if ('error' in joined) {
      setStep('details');
      placeErrors(joined.error);
      return;
    }
    dispatch(tokensReceived(joined.data));
    navigate(HOME, { replace: true });
  };

  const submitDetails = handleSubmit(async (values) => {
    if (!bySms) return join(values);
    // The e-mail is not the invited one: it is confirmed with a code, sent only once the
    // username and e-mail are known to be free (as on sign-up).
    const free = await checkAvailability({ email: values.email, username: values.username });
    if ('error' in free) return placeErrors(free.error);
    const taken = takenFields(free.data);
    for (const [field, message] of taken) setError(field, { message });
    if (taken.length > 0) return;
    const sent = await sendCode({ email: values.email });
    if ('error' in sent) return placeErrors(sent.error);
    setSubmitted(values);
    setStep('code');
  });

  const invitedPhone = invite.phoneNumber ? `${invite.phoneNumber.countryCode} ${invite.phoneNumber.nationalNumber}` : '';

  return (
    <main className="page">
      {step === 'code' && submitted && (
        <EmailCodeStep
          email={submitted.email}
          onVerified={(token) => join(submitted, token)}
          onBack={() => setStep('details')}
          finishing={joining.isLoading}
        />
      )}
      {/* Kept mounted behind the code step so Back finds every field as it was typed. */}
      <div hidden={step !== 'details'} style={step === 'details' ? { display: 'contents' } : undefined}>
        <h1>Join {invite.organizationName}</h1>
        <p>
          You are invited to join as <strong data-testid="invite-role">{roleLabel(invite.role)}</strong>.
        </p>
        <form onSubmit={(e) => void submitDetails(e)} noValidate>
          <TextField label="Username" autoComplete="username" maxLength={20} {...register('username')} error={errors.username?.message} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            maxLength={250}
            readOnly={!bySms}
            {...register('email')}
            error={errors.email?.message}
          />
          {bySms ? (
            <TextField label="Phone number" readOnly value={invitedPhone} error={errors.phoneNumber?.message} />
          ) : (
            <PhoneInput
              countryCode={countryCode}
              onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
              onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
              countryError={errors.countryCode?.message}
              numberError={errors.phoneNumber?.message}
            />
          )}
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            {...register('password')}
            error={errors.password?.message}
          />
          <TextField label="First name (optional)" autoComplete="given-name" {...register('firstName')} error={errors.firstName?.message} />
          <TextField label="Last name (optional)" autoComplete="family-name" {...register('lastName')} error={errors.lastName?.message} />
          {bySms && <p className="muted">We will send a code to this e-mail to confirm it.</p>}
          <PrimaryButton type="submit" loading={availability.isLoading || sending.isLoading || joining.isLoading || formState.isSubmitting}>
            Join
          </PrimaryButton>
        </form>
      </div>
    </main>
  );
}
