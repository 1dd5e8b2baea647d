//! Adding one recipient: by e-mail (spec §5 Email, the field capped at 250 characters) or by phone
//! (the shared phone input: spec §5 Phone number, Country code). A valid recipient is passed on and
//! the form is emptied for the next one.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import type { DraftRecipient } from '../../../lib/sharing/draft';
import { recipientSchema, type RecipientValues } from '../validation/recipient';

interface Props {
  /** Adds the recipient; a message when it cannot be added (already listed, too many). */
  onAdd: (recipient: DraftRecipient) => string | null;
  disabled?: boolean;
}

const EMPTY = { channel: 'email', email: '', countryCode: '+1', phoneNumber: '' } as const;

export function RecipientForm({ onAdd, disabled = false }: Props) {
  // The phone input keeps the digits typed: a new key empties it after an add.
  const [round, setRound] = useState(0);
  const { register, handleSubmit, formState, setError, setValue, clearErrors, reset, control } = useForm<RecipientValues>({
    resolver: zodResolver(recipientSchema),
    defaultValues: EMPTY,
  });
  const [channel, countryCode] = useWatch({ control, name: ['channel', 'countryCode'] });
  const errors = formState.errors;

  const submit = handleSubmit((values) => {
    const recipient: DraftRecipient =
      values.channel === 'email'
        ? { email: values.email.trim() }
        : { phoneNumber: { countryCode: values.countryCode, nationalNumber: values.phoneNumber } };
    const refused = onAdd(recipient);
    if (refused) {
      setError(values.channel === 'email' ? 'email' : 'phoneNumber', { message: refused });
      return;
    }
    reset({ ...EMPTY, channel: values.channel, countryCode: values.countryCode });
    setRound((n) => n + 1);
  });

  return (
    <form className="sharing-recipient-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Add a recipient">
      <fieldset className="sharing-channels">
        <legend>Send the copy</legend>
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
          key={round}
          countryCode={countryCode}
          onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
          onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
          countryError={errors.countryCode?.message}
          numberError={errors.phoneNumber?.message}
        />
      )}
      <PrimaryButton type="submit" variant="secondary" disabled={disabled}>
        Add Recipient
      </PrimaryButton>
    </form>
  );
}
