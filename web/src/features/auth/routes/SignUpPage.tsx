//! Sign up, as an individual (`/sign-up`) or as an organization (`/sign-up-organization`, which
//! also asks the organization's name and makes the account its owner): details, then the 6-digit
//! code sent by e-mail, then the account is created and the new user is led through the
//! walkthrough and the payment details setup to Home (spec §2, §5; docs/decisions.md "Sign-up
//! order", "After sign-up"). An individual arriving by a referral link
//! (`?referred=true&code=...`, spec §2) sees who invited them, and a valid code goes with the new
//! account.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { InvitedBy, referralCodeOf, useReferralCheck } from '../../referrals';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { ONBOARDING, WALKTHROUGH } from '../../../lib/routing/onboarding';
import { tokensReceived } from '../../../lib/session/loginInfoSlice';
import { useCheckAvailabilityMutation, useCreateAccountMutation, useSendCodeMutation } from '../api/authApi';
import { EmailCodeStep } from '../components/EmailCodeStep';
import { showServerErrors, takenFields } from '../model/serverErrors';
import { individualSignUpSchema, organizationSignUpSchema, type SignUpFormValues } from '../validation/organization';

export type SignUpKind = 'individual' | 'organization';

const SERVER_FIELDS = {
  email: 'email',
  username: 'username',
  phone_number: 'phoneNumber',
  password: 'password',
  organization_name: 'organizationName',
} as const satisfies Record<string, keyof SignUpFormValues>;

export function SignUpPage({ kind = 'individual' }: { kind?: SignUpKind }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const organization = kind === 'organization';
  const [search] = useSearchParams();
  // Referrals are between individuals: an organization's sign-up carries none.
  const referral = useReferralCheck(organization ? null : referralCodeOf(search));
  const [step, setStep] = useState<'details' | 'code'>('details');
  // The checked values (trimmed by the rules) that the code step creates the account with.
  const [submitted, setSubmitted] = useState<SignUpFormValues | null>(null);
  const [checkAvailability, availability] = useCheckAvailabilityMutation();
  const [sendCode, sending] = useSendCodeMutation();
  const [createAccount, creating] = useCreateAccountMutation();
  const form = useForm<SignUpFormValues>({
    resolver: zodResolver(organization ? organizationSignUpSchema : individualSignUpSchema),
    defaultValues: { organizationName: '', username: '', email: '', countryCode: '+1', phoneNumber: '', password: '' },
    mode: 'onTouched',
  });
  const { register, handleSubmit, formState, setError, setValue, control } = form;
  const countryCode = useWatch({ control, name: 'countryCode' });
  const errors = formState.errors;
  const placeErrors = (error: unknown) => showServerErrors(error, SERVER_FIELDS, setError, dispatch);

  const submitDetails = handleSubmit(async (values) => {
    const phone = { country_code: values.countryCode, national_number: values.phoneNumber };
    const free = await checkAvailability({ email: values.email, username: values.username, phone_number: phone });
    if ('error' in free) return placeErrors(free.error);
    const taken = takenFields(free.data);
    for (const [field, message] of taken) setError(field, { message });
    if (taken.length > 0) return;
    const sent = await sendCode({ email: values.email });
    if ('error' in sent) return placeErrors(sent.error);
    setSubmitted(values);
    setStep('code');
  });

  const create = async (values: SignUpFormValues, verificationToken: string) => {
    const created = await createAccount({
      username: values.username,
      email: values.email,
      password: values.password,
      phone_number: { country_code: values.countryCode, national_number: values.phoneNumber },
      verification_token: verificationToken,
      ...(organization ? { organization_name: values.organizationName } : {}),
      // Only a code the check found valid: an unknown one would only fail the sign-up.
      ...(referral.kind === 'valid' ? { referral_code: referral.code } : {}),
    });
    if ('error' in created) {
      setStep('details');
      placeErrors(created.error);
      return;
    }
    dispatch(tokensReceived(created.data));
    navigate(WALKTHROUGH, { replace: true, state: ONBOARDING });
  };

  return (
    <main className="page">
      {step === 'code' && submitted && (
        <EmailCodeStep
          email={submitted.email}
          onVerified={(token) => create(submitted, token)}
          onBack={() => setStep('details')}
          finishing={creating.isLoading}
        />
      )}
      {/* Kept mounted behind the code step so Back finds every field as it was typed; its children
          sit in the page's own column. */}
      <div hidden={step !== 'details'} style={step === 'details' ? { display: 'contents' } : undefined}>
        <h1>{organization ? 'Sign Up as an Organization' : 'Sign Up'}</h1>
        <InvitedBy check={referral} />
        <form onSubmit={(e) => void submitDetails(e)} noValidate>
          {organization && (
            <TextField
              label="Organization name"
              autoComplete="organization"
              maxLength={250}
              {...register('organizationName')}
              error={errors.organizationName?.message}
            />
          )}
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
        {organization ? (
          <p className="page__footer">
            Signing up for yourself? <Link to="/sign-up">Sign Up as an Individual</Link>
          </p>
        ) : (
          <p className="page__footer">
            Signing up for a company or a team? <Link to="/sign-up-organization">Sign Up as an Organization</Link>
          </p>
        )}
        <p className="page__footer">
          Already have an account? <Link to="/log-in">Log In</Link>
        </p>
      </div>
    </main>
  );
}
