//! `/refer/email` and `/refer/sms` (any other type is an unknown path): invite a friend by e-mail
//! or by text message, with their name if the user gives it. The spec §5 rules and messages; the
//! body holds only the non-empty fields; server field errors go under their fields, a 429 (too
//! many invitations today) and any other refusal in the snackbar; a sent invitation is announced
//! and the invitations list opens.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { Navigate, useNavigate, useParams } from 'react-router';
import { BackControl } from '../../../components/BackControl';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { alreadyReported, errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { START } from '../../../lib/routing/accessTable';
import { useAppDispatch, type AppDispatch } from '../../../lib/store/hooks';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCreateInvitationMutation, useReferralInfoQuery } from '../api/referralsApi';
import type { CreateInvitationRequest } from '../api/types';
import { rewardSentence } from '../model/programme';
import { emailInviteSchema, isInviteType, smsInviteSchema, type EmailInviteValues, type SmsInviteValues } from '../validation/invite';
import '../referrals.css';

export const INVITATIONS = '/referral-code';
export const TOO_MANY_TODAY = 'You have sent too many invitations today. Please try again tomorrow.';
export const NOT_SENT = 'The invitation was not sent. Please try again.';

export const sentMessage = (to: string) => `Invitation sent to ${to}.`;

export function ReferByTypePage() {
  const { type } = useParams();
  if (!isInviteType(type)) return <Navigate to={START} replace />;
  return (
    <main className="page">
      <BackControl to="/refer-a-friend" label="Refer a Friend" />
      <h1>{type === 'email' ? 'Invite by E-mail' : 'Invite by SMS'}</h1>
      <Reward />
      {type === 'email' ? <EmailInviteForm /> : <SmsInviteForm />}
    </main>
  );
}

/** The reward, once the referral info is at hand (it is cached from Refer a Friend). */
function Reward() {
  const info = useReferralInfoQuery();
  return info.data ? <p className="muted">{rewardSentence(info.data)}</p> : null;
}

/**
 * Sends the invitation; on success announces it and opens the list. A refusal: field errors under
 * the fields `fields` maps (request field, or its first segment, -> form field); else the first
 * server message (a 429's fallback says today's limit was reached).
 */
function useInvite<T extends FieldValues>(fields: Record<string, Path<T>>, setError: UseFormSetError<T>) {
  const dispatch: AppDispatch = useAppDispatch();
  const navigate = useNavigate();
  const [create, creating] = useCreateInvitationMutation();
  const invite = async (body: CreateInvitationRequest) => {
    const created = await create(body);
    if ('error' in created) {
      if (alreadyReported(created.error)) return;
      let placed = false;
      for (const [field, message] of Object.entries(fieldErrors(created.error))) {
        const name = fields[field] ?? fields[field.split('.')[0] ?? ''];
        if (name) {
          setError(name, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) {
        const fallback = errorStatus(created.error) === 429 ? TOO_MANY_TODAY : NOT_SENT;
        dispatch(showSnackbar({ message: firstErrorMessage(created.error, fallback), type: 'error' }));
      }
      return;
    }
    dispatch(showSnackbar({ message: sentMessage(created.data.sentTo), type: 'success' }));
    navigate(INVITATIONS);
  };
  return { invite, creating: creating.isLoading };
}

const withName = (name: string) => (name ? { name } : {});

function EmailInviteForm() {
  const { register, handleSubmit, formState, setError } = useForm<EmailInviteValues>({
    resolver: zodResolver(emailInviteSchema),
    defaultValues: { name: '', email: '' },
    mode: 'onTouched',
  });
  const { invite, creating } = useInvite<EmailInviteValues>({ email: 'email', name: 'name' }, setError);
  const errors = formState.errors;
  const submit = handleSubmit((values) => invite({ email: values.email, ...withName(values.name) }));
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Invite by E-mail">
      <TextField label="Friend's name (optional)" autoComplete="off" maxLength={250} {...register('name')} error={errors.name?.message} />
      <TextField label="Friend's email" type="email" autoComplete="off" maxLength={250} {...register('email')} error={errors.email?.message} />
      <PrimaryButton type="submit" loading={creating || formState.isSubmitting}>
        Send Invitation
      </PrimaryButton>
    </form>
  );
}

function SmsInviteForm() {
  const { register, handleSubmit, formState, setError, setValue, control } = useForm<SmsInviteValues>({
    resolver: zodResolver(smsInviteSchema),
    defaultValues: { name: '', countryCode: '+1', phoneNumber: '' },
    mode: 'onTouched',
  });
  const countryCode = useWatch({ control, name: 'countryCode' });
  const { invite, creating } = useInvite<SmsInviteValues>({ phone_number: 'phoneNumber', name: 'name' }, setError);
  const errors = formState.errors;
  const submit = handleSubmit((values) =>
    invite({ phone_number: { country_code: values.countryCode, national_number: values.phoneNumber }, ...withName(values.name) }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Invite by SMS">
      <TextField label="Friend's name (optional)" autoComplete="off" maxLength={250} {...register('name')} error={errors.name?.message} />
      <PhoneInput
        countryCode={countryCode}
        onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
        onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
        countryError={errors.countryCode?.message}
        numberError={errors.phoneNumber?.message}
      />
      <PrimaryButton type="submit" loading={creating || formState.isSubmitting}>
        Send Invitation
      </PrimaryButton>
    </form>
  );
}
