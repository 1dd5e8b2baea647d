//! `/template-details/:templateId` (signed in; `new` makes one): a capture template's name,
//! description and ordered steps (name, instructions, kinds of media, least and most files).
//! Owners and admins edit, add, remove and reorder steps (Move up / Move down), Save, and Archive
//! or Unarchive; members read it. Anyone starts a folder from a template that is not archived.
//! Server field errors go under their fields.
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { TextField } from '../../../components/TextField';
import { errorStatus, fieldErrors, firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import type { OrganizationRole } from '../../../lib/organization/roles';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import {
  useArchiveCaptureTemplateMutation,
  useCaptureTemplateQuery,
  useCreateCaptureTemplateMutation,
  useUpdateCaptureTemplateMutation,
} from '../api/captureApi';
import { MEDIA_KINDS, type CaptureTemplate, type MediaKind } from '../api/types';
import { OrganizationGate } from '../components/OrganizationGate';
import { StartFolderDialog } from '../components/StartFolderDialog';
import { FAILED_MESSAGE, TEMPLATE_ARCHIVED, TEMPLATE_SAVED, TEMPLATE_UNARCHIVED } from '../model/messages';
import { NEW_TEMPLATE, templatePath, templatesPath } from '../model/paths';
import { canManageTemplates } from '../model/permissions';
import { emptyTemplate, formField, MAX_STEPS, newStep, templateRequest, templateSchema, templateValues, type TemplateValues } from '../validation/template';
import '../organization.css';

export const MEDIA_LABELS: Record<MediaKind, string> = { image: 'Photo', video: 'Video', audio: 'Audio' };

export function TemplateDetailsPage() {
  const { templateId = NEW_TEMPLATE } = useParams();
  return (
    <OrganizationGate title="Capture Template">
      {({ role }) => (templateId === NEW_TEMPLATE ? <NewTemplate role={role} /> : <ExistingTemplate key={templateId} id={templateId} role={role} />)}
    </OrganizationGate>
  );
}

function NewTemplate({ role }: { role: OrganizationRole }) {
  if (!canManageTemplates(role)) {
    return (
      <main className="page org">
        <BackControl to={templatesPath()} label="Templates" />
        <h1>New Template</h1>
        <InfoBanner type="attention" title="Only the owner and admins make capture templates." />
      </main>
    );
  }
  return (
    <main className="page org">
      <BackControl to={templatesPath()} label="Templates" />
      <h1>New Template</h1>
      <TemplateForm />
    </main>
  );
}

function ExistingTemplate({ id, role }: { id: string; role: OrganizationRole }) {
  const dispatch = useAppDispatch();
  const template = useCaptureTemplateQuery(id);
  const [archive, archiving] = useArchiveCaptureTemplateMutation();
  const [starting, setStarting] = useState(false);
  const manage = canManageTemplates(role);
  const data = template.data;

  const toggleArchived = async (current: CaptureTemplate) => {
    const result = await archive({ id: current.id, archived: !current.archived });
    if (!('error' in result)) {
      dispatch(showSnackbar({ message: current.archived ? TEMPLATE_UNARCHIVED : TEMPLATE_ARCHIVED, type: 'info' }));
      return;
    }
    const status = errorStatus(result.error);
    if (status === undefined || status < 500) dispatch(showSnackbar({ message: firstErrorMessage(result.error, FAILED_MESSAGE), type: 'error' }));
  };

  return (
    <main className="page org">
      <BackControl to={templatesPath()} label="Templates" />
      <h1>{data?.name ?? 'Capture Template'}</h1>
      {template.isLoading && <p className="muted">Loading…</p>}
      {template.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(template.error, SERVER_ERROR_MESSAGE)} />
          {!isDefinitive(template.error) && (
            <PrimaryButton variant="secondary" onClick={() => void template.refetch()}>
              Try Again
            </PrimaryButton>
          )}
        </>
      )}
      {data && (
        <>
          {data.archived && <InfoBanner type="attention" title="This template is archived: no new folders can be started from it." />}
          {!data.archived && <PrimaryButton onClick={() => setStarting(true)}>Start a Folder</PrimaryButton>}
          {manage ? <TemplateForm key={data.updatedAt} template={data} /> : <TemplateView template={data} />}
          {manage && (
            <PrimaryButton variant="secondary" loading={archiving.isLoading} onClick={() => void toggleArchived(data)}>
              {data.archived ? 'Unarchive' : 'Archive'}
            </PrimaryButton>
          )}
          {starting && <StartFolderDialog template={data} onClose={() => setStarting(false)} />}
        </>
      )}
    </main>
  );
}

/** A member's view: the template as it is. */
function TemplateView({ template }: { template: CaptureTemplate }) {
  return (
    <section aria-label="Template" className="org-template">
      {template.description && <p className="org-step__instructions">{template.description}</p>}
      <ol className="org-steps" aria-label="Steps">
        {template.steps.map((step, index) => (
          <li key={step.id} className="card org-step" data-testid="template-step">
            <h2 className="org-step__name">
              {index + 1}. {step.name}
            </h2>
            {step.instructions && <p className="org-step__instructions">{step.instructions}</p>}
            <p className="muted org-step__count">
              {step.mediaTypes.map((kind) => MEDIA_LABELS[kind] ?? kind).join(', ')} · {step.minFiles} to {step.maxFiles} files
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The owner's and admins' form: a new template, or the edit of `template`. */
function TemplateForm({ template }: { template?: CaptureTemplate }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [create, creating] = useCreateCaptureTemplateMutation();
  const [update, updating] = useUpdateCaptureTemplateMutation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<TemplateValues>({
    resolver: zodResolver(templateSchema),
    defaultValues: template ? templateValues(template) : emptyTemplate(),
    mode: 'onTouched',
  });
  const { register, control, handleSubmit, formState, setError } = form;
  const steps = useFieldArray({ control, name: 'steps', keyName: 'key' });
  const errors = formState.errors;

  const save = handleSubmit(async (values) => {
    setFailure(undefined);
    const body = templateRequest(values);
    const result = template ? await update({ id: template.id, body }) : await create(body);
    if ('error' in result) {
      const status = errorStatus(result.error);
      if (status !== undefined && status >= 500) return;
      let placed = false;
      for (const [field, message] of Object.entries(fieldErrors(result.error))) {
        const name = formField(field);
        if (name && name !== 'steps') {
          setError(name as FieldPath<TemplateValues>, { message }, { shouldFocus: !placed });
          placed = true;
        }
      }
      if (!placed) setFailure(firstErrorMessage(result.error, FAILED_MESSAGE));
      return;
    }
    dispatch(showSnackbar({ message: TEMPLATE_SAVED, type: 'info' }));
    if (!template) void navigate(templatePath(result.data.id), { replace: true });
  });

  return (
    <form className="org-form" onSubmit={(e) => void save(e)} noValidate aria-label="Template">
      <TextField label="Template name" maxLength={250} {...register('name')} error={errors.name?.message} />
      <div className={`field${errors.description ? ' field--error' : ''}`}>
        <label htmlFor="template-description">Description</label>
        <textarea id="template-description" rows={3} maxLength={1000} {...register('description')} aria-invalid={Boolean(errors.description)} />
        {errors.description?.message && <span className="field__error">{errors.description.message}</span>}
      </div>
      <h2 className="org__section-title">Steps</h2>
      {errors.steps?.root?.message && <span className="field__error">{errors.steps.root.message}</span>}
      {errors.steps?.message && <span className="field__error">{errors.steps.message}</span>}
      <ol className="org-steps" aria-label="Steps">
        {steps.fields.map((field, index) => {
          const stepErrors = errors.steps?.[index];
          const label = `step ${index + 1}`;
          return (
            <li key={field.key} className="card org-step" data-testid="template-step">
              <div className="org-step__head">
                <h3 className="org-step__name">Step {index + 1}</h3>
                <span className="org-step__moves">
                  <button type="button" className="link org-row__action" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => steps.move(index, index - 1)}>
                    Move up
                  </button>
                  <button
                    type="button"
                    className="link org-row__action"
                    aria-label={`Move ${label} down`}
                    disabled={index === steps.fields.length - 1}
                    onClick={() => steps.move(index, index + 1)}
                  >
                    Move down
                  </button>
                  <button type="button" className="link org-row__action" aria-label={`Remove ${label}`} disabled={steps.fields.length === 1} onClick={() => steps.remove(index)}>
                    Remove
                  </button>
                </span>
              </div>
              <TextField label="Step name" maxLength={250} {...register(`steps.${index}.name`)} error={stepErrors?.name?.message} />
              <div className={`field${stepErrors?.instructions ? ' field--error' : ''}`}>
                <label htmlFor={`step-${field.key}-instructions`}>Instructions</label>
                <textarea id={`step-${field.key}-instructions`} rows={2} maxLength={1000} {...register(`steps.${index}.instructions`)} />
                {stepErrors?.instructions?.message && <span className="field__error">{stepErrors.instructions.message}</span>}
              </div>
              <fieldset className="org-choice">
                <legend>Accepted media</legend>
                {MEDIA_KINDS.map((kind) => (
                  <label key={kind}>
                    <input type="checkbox" value={kind} {...register(`steps.${index}.mediaTypes`)} /> {MEDIA_LABELS[kind]}
                  </label>
                ))}
                {stepErrors?.mediaTypes?.message && <span className="field__error">{stepErrors.mediaTypes.message}</span>}
              </fieldset>
              <div className="org-step__numbers">
                <TextField label="Min files" inputMode="numeric" {...register(`steps.${index}.minFiles`)} error={stepErrors?.minFiles?.message} />
                <TextField label="Max files" inputMode="numeric" {...register(`steps.${index}.maxFiles`)} error={stepErrors?.maxFiles?.message} />
              </div>
            </li>
          );
        })}
      </ol>
      {steps.fields.length < MAX_STEPS && (
        <PrimaryButton variant="secondary" onClick={() => steps.append(newStep())}>
          Add Step
        </PrimaryButton>
      )}
      {failure && <InfoBanner type="error" title={failure} />}
      <PrimaryButton type="submit" loading={creating.isLoading || updating.isLoading}>
        Save
      </PrimaryButton>
    </form>
  );
}
