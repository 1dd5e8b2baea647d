//! `/deleting-my-account-reasons` (signed in): why the account is being deleted, one reason from
//! the server's list; 'Other' needs a few words. The choice goes on to the confirm screen in the
//! location state, and is kept on this screen's history entry so Back shows it again.
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage } from '../../../lib/api/errors';
import { useDeleteReasonsQuery } from '../api/deletionApi';
import { choiceFrom, choiceState, DELETION_PATHS, OTHER_REASON, SETTINGS, type DeletionChoice } from '../model/choice';
import { DETAILS_MAX, reasonSchema, type ReasonValues } from '../validation/reason';
import '../deletion.css';

export const REASONS_NOT_LOADED = 'The reasons could not be loaded.';

export function DeleteReasonsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const detailsId = useId();
  const reasons = useDeleteReasonsQuery();
  const previous = choiceFrom(location.state);
  const { register, handleSubmit, formState, control } = useForm<ReasonValues>({
    resolver: zodResolver(reasonSchema),
    defaultValues: { reasonId: previous?.reasonId ?? '', details: previous?.details ?? '' },
    mode: 'onTouched',
  });
  const reasonId = useWatch({ control, name: 'reasonId' });
  const details = useWatch({ control, name: 'details' });
  const detailsError = formState.errors.details?.message;

  const submit = handleSubmit(async (values) => {
    const choice: DeletionChoice = {
      reasonId: values.reasonId,
      reasonTitle: reasons.data?.find((reason) => reason.id === values.reasonId)?.title ?? '',
      details: values.reasonId === OTHER_REASON ? values.details.trim() : '',
    };
    // This entry keeps the choice too, so Back from the confirm screen shows it again.
    await navigate(location.pathname, { replace: true, state: choiceState(choice) });
    await navigate(DELETION_PATHS.confirm, { state: choiceState(choice) });
  });

  return (
    <main className="page">
      <h1>Why are you leaving?</h1>
      {reasons.isLoading && <p className="muted">Loading…</p>}
      {reasons.isError && (
        <InfoBanner
          type="error"
          title={firstErrorMessage(reasons.error, REASONS_NOT_LOADED)}
          actionLabel="Try again"
          onAction={() => void reasons.refetch()}
        />
      )}
      {reasons.data && (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <fieldset className="deletion__reasons">
            <legend>Choose the reason that fits best</legend>
            {reasons.data.map((reason) => (
              <label key={reason.id} className={`deletion__reason${reason.id === reasonId ? ' deletion__reason--selected' : ''}`}>
                <input type="radio" value={reason.id} {...register('reasonId')} />
                <span>{reason.title}</span>
              </label>
            ))}
          </fieldset>
          {reasonId === OTHER_REASON && (
            <div className={`field deletion__details${detailsError ? ' field--error' : ''}`}>
              <label htmlFor={detailsId}>Tell us why</label>
              <textarea
                id={detailsId}
                rows={4}
                maxLength={DETAILS_MAX}
                aria-invalid={Boolean(detailsError)}
                aria-describedby={detailsError ? `${detailsId}-error` : undefined}
                {...register('details')}
              />
              <span className="deletion__counter">
                {details.length}/{DETAILS_MAX}
              </span>
              {detailsError && (
                <span id={`${detailsId}-error`} className="field__error">
                  {detailsError}
                </span>
              )}
            </div>
          )}
          <PrimaryButton type="submit" variant="red" disabled={!reasonId}>
            Continue
          </PrimaryButton>
        </form>
      )}
      <PrimaryButton variant="secondary" onClick={() => navigate(SETTINGS)}>
        Cancel
      </PrimaryButton>
    </main>
  );
}
