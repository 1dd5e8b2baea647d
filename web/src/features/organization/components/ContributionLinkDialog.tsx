//! 'New Contribution Link': who gets it (an e-mail address, or a phone number by SMS), how many
//! days it lives (1-30, 7 at first) and how many files it takes (1-100, 10 at first). A server
//! field error goes under its field; any other error is the first server message in the snackbar.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { useEscape } from '../../../components/useEscape';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCreateContributionLinkMutation } from '../api/captureApi';
import { FAILED_MESSAGE, linkSentMessage } from '../model/messages';
import { contributionLinkSchema, LINK_DAYS, LINK_SUBMISSIONS, type ContributionLinkValues } from '../validation/contributionLink';

const SERVER_FIELDS: Record<string, keyof ContributionLinkValues> = {
  email: 'email',
  phone_number: 'phoneNumber',
  expires_in_days: 'expiresInDays',
  max_submissions: 'maxSubmissions',
};

export function ContributionLinkDialog({ folderId, onClose }: { folderId: string; onClose: () => void }) {
  useEscape(onClose);
  const dispatch = useAppDispatch();
  const titleId = useId();
  const [createLink, creating] = useCreateContributionLinkMutation();
  const { register, handleSubmit, formState, setError, setValue, clearErrors, control } = useForm<ContributionLinkValues>({
    resolver: zodResolver(contributionLinkSchema),
    defaultValues: {
      channel: 'email',
      email: '',
      countryCode: '+1',
      phoneNumber: '',
      expiresInDays: String(LINK_DAYS.default),
      maxSubmissions: String(LINK_SUBMISSIONS.default),
    },
    mode: 'onTouched',
  });
  const [channel, countryCode] = useWatch({ control, name: ['channel', 'countryCode'] });
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    const recipient =
      values.channel === 'email'
        ? { email: values.email.trim() }
        : { phone_number: { country_code: values.countryCode, national_number: values.phoneNumber } };
    const result = await createLink({
      folder_id: folderId,
      ...recipient,
      expires_in_days: Number(values.expiresInDays),
      max_submissions: Number(values.maxSubmissions),
    });
    if ('error' in result) {
      const status = errorStatus(result.error);
      if (status !== undefined && status >= 500) return;
      let placed = false;
      for (const [field, message] of Object.entries(fieldErrors(result.error))) {
        const name = SERVER_FIELDS[field];
        if (name) {
          setError(name, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) dispatch(showSnackbar({ message: firstErrorMessage(result.error, FAILED_MESSAGE), type: 'error' }));
      return;
    }
    dispatch(showSnackbar({ message: linkSentMessage(result.data.sentTo), type: 'info' }));
    onClose();
  });

  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="dialog__title">
          New Contribution Link
        </h2>
        <form onSubmit={(e) => void submit(e)} noValidate className="org-form">
          <fieldset className="org-choice">
            <legend>Send the link</legend>
            <label>
              <input type="radio" value="email" {...register('channel', { onChange: () => clearErrors() })} /> By E-mail
            </label>
            <label>
              <input type="radio" value="sms" {...register('channel', { onChange: () => clearErrors() })} /> By SMS
            </label>
          </fieldset>
          {channel === 'email' ? (
            <TextField label="Email" type="email" autoComplete="off" maxLength={250} {...register('email')} error={errors.email?.message} />
          ) : (
            <PhoneInput
              countryCode={countryCode}
              onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
              onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
              countryError={errors.countryCode?.message}
              numberError={errors.phoneNumber?.message}
            />
          )}
          <TextField label="Expires in (days)" inputMode="numeric" {...register('expiresInDays')} error={errors.expiresInDays?.message} />
          <TextField label="Files it can send" inputMode="numeric" {...register('maxSubmissions')} error={errors.maxSubmissions?.message} />
          <div className="dialog__buttons">
            <PrimaryButton type="submit" loading={creating.isLoading || formState.isSubmitting}>
              Send Link
            </PrimaryButton>
            <PrimaryButton variant="secondary" onClick={onClose}>
              Cancel
            </PrimaryButton>
          </div>
        </form>
      </div>
    </div>
  );
}
