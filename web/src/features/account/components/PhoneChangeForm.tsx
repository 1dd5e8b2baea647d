//! A new phone number through the shared phone input (spec §5 Phone number, Country code):
//! PATCH accounts/phone-number/change/ with the password token texts a code to the new number, the
//! same call with the code changes it.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { useChangePhoneMutation } from '../api/accountApi';
import { CHANGED } from '../model/messages';
import { phoneSchema, type PhoneValues } from '../validation/account';
import { CodeStep } from './CodeStep';
import type { SensitiveFormProps } from './formProps';
import { useCodeChange } from './useCodeChange';

interface Props extends SensitiveFormProps {
  /** The current number's country code, where most people stay. */
  initialCountryCode: string;
}

export function PhoneChangeForm({ token, onTokenRefused, onDone, initialCountryCode }: Props) {
  const [change] = useChangePhoneMutation();
  const { handleSubmit, formState, setError, setValue, control } = useForm<PhoneValues>({
    resolver: zodResolver(phoneSchema),
    defaultValues: { countryCode: initialCountryCode, phoneNumber: '' },
  });
  const countryCode = useWatch({ control, name: 'countryCode' });
  const flow = useCodeChange({
    send: change,
    valueFields: { new_phone_number: 'phoneNumber' },
    onValueError: (_field, message) => setError('phoneNumber', { message }),
    onTokenRefused,
    onDone: () => onDone(CHANGED.phone),
  });

  if (flow.sent) {
    return (
      <CodeStep
        sentTo={flow.sent.sentTo}
        error={flow.codeError}
        confirming={flow.busy === 'confirm'}
        resending={flow.busy === 'resend'}
        onConfirm={(code) => void flow.confirm(code)}
        onResend={() => void flow.resend()}
        onEdit={flow.clearCodeError}
        onBack={flow.back}
      />
    );
  }

  const submit = handleSubmit(async (values) => {
    await flow.start(
      { new_phone_number: { country_code: values.countryCode, national_number: values.phoneNumber }, password_token: token },
      `${values.countryCode} ${values.phoneNumber}`,
    );
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <PhoneInput
        countryCode={countryCode}
        onCountryCodeChange={(value) => setValue('countryCode', value, { shouldValidate: true })}
        onNumberChange={(digits) => setValue('phoneNumber', digits, { shouldValidate: formState.isSubmitted })}
        countryError={formState.errors.countryCode?.message}
        numberError={formState.errors.phoneNumber?.message}
      />
      <PrimaryButton type="submit" loading={flow.busy === 'start'}>
        Send code
      </PrimaryButton>
    </form>
  );
}
