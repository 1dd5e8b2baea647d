//! The 'Invite Participant' dialog: by e-mail (an address) or by SMS (the shared phone input), and
//! the role among those the inviter may give (the owner: Admin or Member; an admin: Member). A server field error goes under its field; any other error is the
//! first server message in the snackbar, and the dialog stays open.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useAppDispatch } from '../../../lib/store/hooks';
import { PhoneInput } from '../../../components/PhoneInput';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { ROLE_LABELS, type InvitableRole } from '../../../lib/organization/roles';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useCreateInviteMutation } from '../api/organizationApi';
import { FAILED_MESSAGE, inviteSentMessage } from '../model/messages';
import { inviteSchema, type InviteValues } from '../validation/invite';
import { useEscape } from '../../../components/useEscape';

const SERVER_FIELDS: Record<string, keyof InviteValues> = { email: 'email', phone_number: 'phoneNumber', role: 'role' };

export const CHANNEL_HINTS = {
  email: 'We will e-mail an invite code and a link to join to this address.',
  sms: 'We will text an invite code and a link to join to this number.',
} as const;

interface Props {
  /** The roles the inviter may give, never empty; Member is chosen at first when it is one. */
  roles: InvitableRole[];
  onClose: () => void;
}

export function InviteDialog({ roles, onClose }: Props) {
  useEscape(onClose);
  const dispatch = useAppDispatch();
  const titleId = useId();
  const [createInvite, creating] = useCreateInviteMutation();
  const { register, handleSubmit, formState, setError, setValue, clearErrors, control } = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: {
      channel: 'email',
      email: '',
      countryCode: '+1',
      phoneNumber: '',
      role: roles.includes('member') ? 'member' : (roles[0] ?? 'member'),
    },
    mode: 'onTouched',
  });
  const [channel, countryCode] = useWatch({ control, name: ['channel', 'countryCode'] });
  const errors = formState.errors;

  const submit = handleSubmit(async (values) => {
    const sent = await createInvite(
      values.channel === 'email'
        ? { email: values.email.trim(), role: values.role }
        : { phone_number: { country_code: values.countryCode, national_number: values.phoneNumber }, role: values.role },
    );
    if ('error' in sent) {
      const status = errorStatus(sent.error);
      // The base query already shows the generic message for a 5xx answer.
      if (status !== undefined && status >= 500) return;
      let placed = false;
      for (const [field, message] of Object.entries(fieldErrors(sent.error))) {
        const name = SERVER_FIELDS[field];
        if (name) {
          setError(name, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) dispatch(showSnackbar({ message: firstErrorMessage(sent.error, FAILED_MESSAGE), type: 'error' }));
      return;
    }
    dispatch(showSnackbar({ message: inviteSentMessage(sent.data.sentTo), type: 'info' }));
    onClose();
  });

  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="dialog__title">
          Invite Participant
        </h2>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <fieldset className="org-choice">
            <legend>Send the invite</legend>
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
          <p className="muted">{CHANNEL_HINTS[channel]}</p>
          <fieldset className="org-choice">
            <legend>Role</legend>
            {roles.map((role) => (
              <label key={role}>
                <input type="radio" value={role} {...register('role')} /> {ROLE_LABELS[role]}
              </label>
            ))}
            {errors.role?.message && <span className="field__error">{errors.role.message}</span>}
          </fieldset>
          <div className="dialog__buttons">
            <PrimaryButton type="submit" loading={creating.isLoading || formState.isSubmitting}>
              Send Invite
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
