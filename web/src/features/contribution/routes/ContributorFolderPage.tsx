//! `/organization-sharing/folder/:folderId` (public-only): the organization folder an invited
//! contributor adds files to: the organization and folder names, the proven e-mail, when the link
//! ends and how many submissions are left, and each step with the contributor's own submissions
//! and their state (awaiting upload, uploaded and being checked, verified, rejected with the
//! reason), with 'Capture' per step. While a submission is uploaded but not yet verified the
//! contents are asked for again every 5 s. Without a token, or when the server refuses it (401),
//! the contributor goes back to the verification of the same link.
import { useEffect } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, isDefinitive, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDateTime } from '../../../lib/format/format';
import { useContributionContentsQuery, useContributionDetailsQuery } from '../api/contributionApi';
import { SubmissionList } from '../components/SubmissionList';
import { checkingAny } from '../model/status';
import { contributionToken, evidencePath, forgetContribution, verificationPath } from '../model/token';
import '../contribution.css';

/** How often the contents are asked for while a submission is being checked. */
export const CHECK_POLL_MS = 5000;

export function ContributorFolderPage() {
  const { folderId = '' } = useParams();
  const token = contributionToken(folderId);
  if (!token) return <Navigate to={verificationPath(folderId)} replace />;
  return <ContributorFolder folderId={folderId} token={token} />;
}

/** Sends the contributor back to the verification when the server refused the token. */
export function useTokenRefused(folderId: string, ...errors: unknown[]) {
  const navigate = useNavigate();
  const refused = errors.some((error) => errorStatus(error) === 401);
  useEffect(() => {
    if (!refused) return;
    const back = verificationPath(folderId);
    forgetContribution();
    void navigate(back, { replace: true });
  }, [refused, folderId, navigate]);
}

function ContributorFolder({ folderId, token }: { folderId: string; token: string }) {
  const details = useContributionDetailsQuery({ folderId, token });
  const contents = useContributionContentsQuery({ folderId, token });
  const checking = checkingAny(contents.data?.steps.flatMap((step) => step.submissions) ?? []);
  // The same query, asked again while a file is being checked (RTK Query polls one subscription).
  useContributionContentsQuery({ folderId, token }, { pollingInterval: checking ? CHECK_POLL_MS : 0, skip: !checking });
  useTokenRefused(folderId, details.error, contents.error);

  const failed = details.isError ? details : contents.isError ? contents : undefined;
  if (failed && errorStatus(failed.error) === 401) return null;

  return (
    <main className="page contribution">
      {details.data ? (
        <header className="contribution__head">
          <p className="muted contribution__org" data-testid="organization-name">
            {details.data.organizationName}
          </p>
          <h1>{details.data.folderName}</h1>
          <p className="muted">
            Sending as <strong>{details.data.email}</strong>
          </p>
          <p className="muted" data-testid="link-facts">
            Link valid until {formatDateTime(details.data.expiresAt)} ·{' '}
            {details.data.submissionsLeft === 1 ? '1 submission left' : `${details.data.submissionsLeft} submissions left`}
          </p>
        </header>
      ) : (
        <h1>Organization folder</h1>
      )}
      {(details.isLoading || contents.isLoading) && <p className="muted">Loading…</p>}
      {failed && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(failed.error, SERVER_ERROR_MESSAGE)} />
          {!isDefinitive(failed.error) && (
            <PrimaryButton
              variant="secondary"
              onClick={() => {
                void details.refetch();
                void contents.refetch();
              }}
            >
              Try Again
            </PrimaryButton>
          )}
        </>
      )}
      {contents.data && (
        <ol className="contribution__steps" aria-label="Steps">
          {contents.data.steps.map((step, index) => (
            <li key={step.id} className="card contribution-step" data-testid="contribution-step">
              <div className="contribution-step__head">
                <h2 className="contribution-step__name">
                  {index + 1}. {step.name}
                </h2>
                {details.data && details.data.submissionsLeft > 0 && (
                  <Link className="btn btn--primary contribution-step__capture" to={evidencePath(folderId, step.id)} aria-label={`Capture for ${step.name}`}>
                    Capture
                  </Link>
                )}
              </div>
              {step.instructions && <p className="contribution-step__instructions">{step.instructions}</p>}
              <SubmissionList submissions={step.submissions} />
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
