//! `/dashboard/organization-captures` (signed in): the 'Organization' tab. An organization sees its
//! name and the user's role, the ways to its capture templates and participants, and its folders
//! (name, template, steps complete, contributions waiting for review, storage date); any other
//! account sees what the tab is for.
import { Link } from 'react-router';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { formatDate } from '../../../lib/format/format';
import { roleLabel } from '../../../lib/organization/roles';
import { useOrganizationFoldersQuery } from '../api/captureApi';
import { useOwnOrganization } from '../api/organizationApi';
import type { OrganizationFolderSummary } from '../api/types';
import { NotAnOrganization } from '../components/NotAnOrganization';
import { NO_FOLDERS } from '../model/messages';
import { organizationFolderPath, PARTICIPANTS, templatesPath } from '../model/paths';
import '../organization.css';

export { PARTICIPANTS };

export function OrganizationCapturesPage() {
  const organization = useOwnOrganization();
  const data = organization.data;

  return (
    <main className="page org">
      <h1>Organization Captures</h1>
      {organization.isLoading && <p className="muted">Loading…</p>}
      {data && (
        <>
          <section className="card org-empty" aria-label="Organization">
            <p className="org__name" data-testid="organization-name">
              {data.name}
            </p>
            <p className="muted">Your role: {roleLabel(data.role)}</p>
            <div className="org__links">
              <Link className="btn btn--secondary" to={templatesPath('list')}>
                Capture Templates
              </Link>
              <Link className="btn btn--secondary" to={PARTICIPANTS}>
                Participants
              </Link>
            </div>
          </section>
          <OrganizationFolders organizationName={data.name} />
        </>
      )}
      {!data && organization.outside && <NotAnOrganization />}
      {!data && organization.isError && !organization.outside && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(organization.error, SERVER_ERROR_MESSAGE)} />
          <PrimaryButton variant="secondary" onClick={() => void organization.refetch()}>
            Try Again
          </PrimaryButton>
        </>
      )}
    </main>
  );
}

function OrganizationFolders({ organizationName }: { organizationName: string }) {
  const folders = useOrganizationFoldersQuery();
  return (
    <section aria-labelledby="org-folders-title" className="org-folders">
      <h2 id="org-folders-title" className="org__section-title">
        Folders
      </h2>
      {folders.isLoading && <p className="muted">Loading…</p>}
      {folders.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(folders.error, SERVER_ERROR_MESSAGE)} />
          <PrimaryButton variant="secondary" onClick={() => void folders.refetch()}>
            Try Again
          </PrimaryButton>
        </>
      )}
      {folders.data && folders.data.length === 0 && (
        <div className="org-empty">
          <p className="org-empty__title">{NO_FOLDERS}</p>
          <p className="muted">Start a folder from a capture template; the folders of {organizationName} are listed here, for everyone in it to find.</p>
        </div>
      )}
      {folders.data && folders.data.length > 0 && (
        <ul className="org-list" aria-label="Organization folders">
          {folders.data.map((folder) => (
            <FolderRow key={folder.id} folder={folder} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FolderRow({ folder }: { folder: OrganizationFolderSummary }) {
  return (
    <li className="org-row" data-testid="organization-folder">
      <Link className="org-row__link" to={organizationFolderPath(folder.id)}>
        <span className="org-row__body">
          <span className="org-row__name">{folder.name}</span>
          <span className="muted">{folder.templateName}</span>
          <span className="muted">
            {folder.stepsComplete} of {folder.stepCount} steps complete
          </span>
          {folder.expired ? (
            <span className="org-chip org-chip--expired">Expired</span>
          ) : (
            folder.storageExpiresAt && (
              <span className="muted">
                Storage date {formatDate(folder.storageExpiresAt)}
                {folder.expireSoon && <span className="org-chip org-chip--soon">expire soon</span>}
              </span>
            )
          )}
        </span>
        {folder.pendingCount > 0 && <span className="org-badge org-badge--pending">{folder.pendingCount} pending</span>}
      </Link>
    </li>
  );
}
