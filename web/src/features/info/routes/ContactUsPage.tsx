//! `/contact-us` (open to anyone): a message to support by e-mail. Name and e-mail are prefilled
//! from the profile when signed in. Server field errors go under their fields; any other error (the
//! hourly limit among them) is the first server message in the snackbar.
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../lib/store/hooks';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { useMeQuery } from '../../../lib/api/me';
import { selectSignedIn } from '../../../lib/session/loginInfoSlice';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useSendContactMessageMutation } from '../api/supportApi';
import { TextAreaField } from '../components/TextAreaField';
import { contactSchema, type ContactValues } from '../validation/contact';
import '../info.css';
import { InfoBack } from '../components/InfoBack';

export const SENT_MESSAGE = 'Your message was sent. We will reply by e-mail.';
// Not given by the spec (/tmp/pay/decisions-info.md).
export const NOT_SENT_MESSAGE = 'Your message was not sent. Please try again.';
export const TOO_MANY_MESSAGE = 'Too many messages. Please try again later.';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;
type Field = (typeof FIELDS)[number];
const isField = (field: string): field is Field => (FIELDS as readonly string[]).includes(field);

export function ContactUsPage() {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectSignedIn);
  const me = useMeQuery(undefined, { skip: !signedIn });
  const [send, sending] = useSendContactMessageMutation();
  const { register, handleSubmit, formState, setError, setValue, getValues, reset } = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: '', subject: '', message: '' },
    mode: 'onTouched',
  });
  const errors = formState.errors;

  // Fill in what the profile knows, without overwriting what the visitor already typed.
  const profile = me.data;
  useEffect(() => {
    if (!profile) return;
    const fullName = [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim();
    if (fullName && !getValues('name')) setValue('name', fullName);
    if (profile.email && !getValues('email')) setValue('email', profile.email);
  }, [profile, getValues, setValue]);

  const submit = handleSubmit(async (values) => {
    const sent = await send(values);
    if ('error' in sent) {
      const status = errorStatus(sent.error);
      // The base query already shows the generic message for a 5xx answer.
      if (status !== undefined && status >= 500) return;
      let placed = false;
      for (const [field, message] of Object.entries(fieldErrors(sent.error))) {
        if (isField(field)) {
          setError(field, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) {
        const fallback = status === 429 ? TOO_MANY_MESSAGE : NOT_SENT_MESSAGE;
        dispatch(showSnackbar({ message: firstErrorMessage(sent.error, fallback), type: 'error' }));
      }
      return;
    }
    reset({ name: values.name, email: values.email, subject: '', message: '' });
    dispatch(showSnackbar({ message: SENT_MESSAGE, type: 'info' }));
  });

  return (
    <main className="page">
      <InfoBack />
      <h1>Contact Us</h1>
      <p>
        Write to our support team; we reply by e-mail. Quick fixes for common problems are in <Link to="/tech-support">Tech Support</Link>{' '}
        and the <Link to="/faq">FAQ</Link>.
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Name" autoComplete="name" {...register('name')} error={errors.name?.message} />
        <TextField label="Email" type="email" autoComplete="email" maxLength={250} {...register('email')} error={errors.email?.message} />
        <TextField label="Subject" {...register('subject')} error={errors.subject?.message} />
        <TextAreaField label="Message" rows={6} {...register('message')} error={errors.message?.message} />
        <PrimaryButton type="submit" loading={sending.isLoading || formState.isSubmitting}>
          Send
        </PrimaryButton>
      </form>
    </main>
  );
}
