//! `/dashboard/organization-captures` (signed in): the organization's captures. Organization capture
//! comes in a later issue and there is no list to show yet, so an organization sees its name, the
//! way to its participants and the empty state; any other account sees what the tab is for.
import { Link } from 'react-router';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { roleLabel } from '../../../lib/organization/roles';
import { useOrganizationQuery } from '../api/organizationApi';
import { NotAnOrganization } from '../components/NotAnOrganization';
import { NO_CAPTURES } from '../model/messages';
import '../organization.css';

export const PARTICIPANTS = '/organization-participants';

export function OrganizationCapturesPage() {
  const organization = useOrganizationQuery();
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
            <Link className="btn btn--secondary" to={PARTICIPANTS}>
              Participants
            </Link>
          </section>
          <section className="org-empty" aria-label="Captures">
            <h2 className="org-empty__title">{NO_CAPTURES}</h2>
            <p className="muted">
              Evidence your participants capture for {data.name} will be listed here, for everyone in the organization to find.
            </p>
          </section>
        </>
      )}
      {!data && organization.isError && errorStatus(organization.error) === 404 && <NotAnOrganization />}
      {!data && organization.isError && errorStatus(organization.error) !== 404 && (
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
