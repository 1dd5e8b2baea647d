//! `/organization-folder/:folderId` (signed in, any participant): an organization folder made from
//! a capture template: its name, template and storage date, and its steps in order, each with the
//! files it holds (thumbnail or media icon, name, state; a contribution's review badge and the
//! contributor's e-mail), 'N of M files' and whether the step is complete, and 'Capture' into the
//! step. A pending contribution is accepted, or declined after a confirmation. Below, the folder's
//! contribution links.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAppDispatch } from '../../../lib/store/hooks';
import { BackControl } from '../../../components/BackControl';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { EXPIRED_MESSAGE } from '../../../lib/api/evidence';
import { errorStatus, firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDate, formatFileSize, truncateName } from '../../../lib/format/format';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import { useOrganizationFolderQuery, useReviewItemMutation } from '../api/captureApi';
import type { FolderStep, OrganizationItem } from '../api/types';
import { ContributionLinks } from '../components/ContributionLinks';
import { CONTRIBUTION_ACCEPTED, CONTRIBUTION_DECLINED, FAILED_MESSAGE, NO_STEP_FILES } from '../model/messages';
import { ORGANIZATION_CAPTURES, organizationEvidencePath } from '../model/paths';
import { ITEM_STATUS_LABELS, pendingFiles, REVIEW_LABELS, stepCountText } from '../model/steps';
import '../organization.css';

export function OrganizationFolderPage() {
  const { folderId = '' } = useParams();
  const dispatch = useAppDispatch();
  const folder = useOrganizationFolderQuery(folderId);
  const [reviewItem, review] = useReviewItemMutation();
  const [declining, setDeclining] = useState<OrganizationItem | null>(null);

  const decide = async (item: OrganizationItem, decision: 'accepted' | 'declined') => {
    const result = await reviewItem({ itemId: item.id, folderId, decision });
    setDeclining(null);
    if (!('error' in result)) {
      dispatch(showSnackbar({ message: decision === 'accepted' ? CONTRIBUTION_ACCEPTED : CONTRIBUTION_DECLINED, type: 'info' }));
      return;
    }
    const status = errorStatus(result.error);
    if (status === undefined || status < 500) dispatch(showSnackbar({ message: firstErrorMessage(result.error, FAILED_MESSAGE), type: 'error' }));
  };

  const data = folder.data;
  return (
    <main className="page org">
      <BackControl to={ORGANIZATION_CAPTURES} label="Organization" />
      <h1>{data?.name ?? 'Organization folder'}</h1>
      {folder.isLoading && <p className="muted">Loading…</p>}
      {folder.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(folder.error, SERVER_ERROR_MESSAGE)} />
          {!isDefinitive(folder.error) && (
            <PrimaryButton variant="secondary" onClick={() => void folder.refetch()}>
              Try Again
            </PrimaryButton>
          )}
        </>
      )}
      {data && (
        <>
          <p className="muted org-folder__facts">
            {data.templateName}
            {data.storageExpiresAt && ` · Storage date ${formatDate(data.storageExpiresAt)}`}
          </p>
          {data.expired && <InfoBanner type="attention" title={EXPIRED_MESSAGE} />}
          <ol className="org-steps" aria-label="Steps">
            {data.steps.map((step, index) => (
              <StepCard
                key={step.id}
                index={index}
                step={step}
                folderId={folderId}
                canCapture={!data.expired}
                busy={review.isLoading}
                onAccept={(item) => void decide(item, 'accepted')}
                onDecline={setDeclining}
              />
            ))}
          </ol>
          <ContributionLinks folderId={folderId} canCreate={!data.expired} />
        </>
      )}
      <ConfirmDialog
        isOpen={declining !== null}
        title="Decline Contribution?"
        subTitle={declining ? `${declining.name} from ${declining.contributorEmail ?? 'the contributor'} will not count for its step.` : undefined}
        buttons={[
          { text: 'Decline', isHighlighted: true, disabled: review.isLoading, onClick: () => declining && void decide(declining, 'declined') },
          { text: 'Cancel', onClick: () => setDeclining(null) },
        ]}
      />
    </main>
  );
}

interface StepProps {
  index: number;
  step: FolderStep;
  folderId: string;
  canCapture: boolean;
  busy: boolean;
  onAccept: (item: OrganizationItem) => void;
  onDecline: (item: OrganizationItem) => void;
}

function StepCard({ index, step, folderId, canCapture, busy, onAccept, onDecline }: StepProps) {
  return (
    <li className="card org-step" data-testid="folder-step" data-complete={step.complete}>
      <div className="org-step__head">
        <h2 className="org-step__name">
          {index + 1}. {step.name}
        </h2>
        <span className={`org-badge ${step.complete ? 'org-badge--accepted' : 'org-badge--pending'}`}>{step.complete ? 'Complete' : 'Incomplete'}</span>
      </div>
      {step.instructions && <p className="org-step__instructions">{step.instructions}</p>}
      <p className="muted org-step__count">
        {stepCountText(step, pendingFiles(step.items))}
      </p>
      {step.items.length === 0 ? (
        <p className="muted">{NO_STEP_FILES}</p>
      ) : (
        <ul className="org-list" aria-label={`Files of ${step.name}`}>
          {step.items.map((item) => (
            <li key={item.id} className="org-row org-item" data-testid="step-item">
              {item.thumbnail && item.mediaType !== 'audio' ? (
                <img className="org-item__thumb" src={item.thumbnail} alt={`Thumbnail of ${item.name}`} loading="lazy" />
              ) : (
                <span className={`org-item__thumb org-item__thumb--${item.mediaType}`} role="img" aria-label={`${item.mediaType} file`} />
              )}
              <div className="org-row__body">
                <span className="org-row__name" title={item.name}>
                  {truncateName(item.name)}
                </span>
                <span className="muted">
                  {formatFileSize(item.fileSize)} · {ITEM_STATUS_LABELS[item.status] ?? item.status}
                </span>
                {item.contributorEmail && <span className="muted">From {item.contributorEmail}</span>}
              </div>
              <div className="org-row__side">
                {item.reviewState && <span className={`org-badge org-badge--${item.reviewState}`}>{REVIEW_LABELS[item.reviewState]}</span>}
                {item.reviewState === 'pending' && (
                  <span className="org-item__review">
                    <button type="button" className="link org-row__action" disabled={busy} aria-label={`Accept ${item.name}`} onClick={() => onAccept(item)}>
                      Accept
                    </button>
                    <button type="button" className="link org-row__action" disabled={busy} aria-label={`Decline ${item.name}`} onClick={() => onDecline(item)}>
                      Decline
                    </button>
                  </span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {canCapture && (
        <Link className="btn btn--primary org-step__capture" to={organizationEvidencePath(folderId, step.id)} aria-label={`Capture for ${step.name}`}>
          Capture
        </Link>
      )}
    </li>
  );
}
