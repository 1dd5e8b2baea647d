//! 'Start a Folder' from a capture template: the folder's name (spec §5 File name), then the
//! organization folder is made and opened. A server field error goes under the name.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { useEscape } from '../../../components/useEscape';
import { errorStatus, fieldErrors, firstErrorMessage } from '../../../lib/api/errors';
import { FILE_NAME_INPUT_MAX_LENGTH, fileName } from '../../../lib/validation/fileName';
import { useCreateOrganizationFolderMutation } from '../api/captureApi';
import type { CaptureTemplate } from '../api/types';
import { FAILED_MESSAGE } from '../model/messages';
import { organizationFolderPath } from '../model/paths';

const schema = z.object({ name: fileName });
type Values = z.infer<typeof schema>;

export function StartFolderDialog({ template, onClose }: { template: CaptureTemplate; onClose: () => void }) {
  useEscape(onClose);
  const titleId = useId();
  const navigate = useNavigate();
  // One id per dialog: a create repeated after a lost answer is the same folder.
  const [clientId] = useState(() => crypto.randomUUID());
  const [failure, setFailure] = useState<string>();
  const [createFolder, creating] = useCreateOrganizationFolderMutation();
  const { register, handleSubmit, formState, setError } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '' }, mode: 'onTouched' });

  const submit = handleSubmit(async ({ name }) => {
    setFailure(undefined);
    const result = await createFolder({ template_id: template.id, name, client_id: clientId });
    if ('error' in result) {
      const status = errorStatus(result.error);
      if (status !== undefined && status >= 500) return;
      const message = fieldErrors(result.error).name;
      if (message) setError('name', { message }, { shouldFocus: true });
      else setFailure(firstErrorMessage(result.error, FAILED_MESSAGE));
      return;
    }
    void navigate(organizationFolderPath(result.data.id));
  });

  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="dialog__title">
          Start a Folder
        </h2>
        <p className="dialog__subtitle">A folder for {template.name}, with its steps.</p>
        <form onSubmit={(e) => void submit(e)} noValidate className="org-form">
          <TextField label="Folder name" maxLength={FILE_NAME_INPUT_MAX_LENGTH} {...register('name')} error={formState.errors.name?.message} />
          {failure && <InfoBanner type="error" title={failure} />}
          <div className="dialog__buttons">
            <PrimaryButton type="submit" loading={creating.isLoading}>
              Start
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
