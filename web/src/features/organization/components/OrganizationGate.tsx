//! The organization screens' common start: the user's organization and role, with loading, a
//! failure with Try Again, and NotAnOrganization for an account outside any organization.
import type { ReactNode } from 'react';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import { isRole, type OrganizationRole } from '../../../lib/organization/roles';
import { useOwnOrganization } from '../api/organizationApi';
import { NotAnOrganization } from './NotAnOrganization';

interface Props {
  title: string;
  children: (organization: { name: string; role: OrganizationRole }) => ReactNode;
}

export function OrganizationGate({ title, children }: Props) {
  const organization = useOwnOrganization();
  if (organization.data) {
    const role = organization.data.role;
    // An unknown role gets no controls, as a member's.
    return <>{children({ name: organization.data.name, role: isRole(role) ? role : 'member' })}</>;
  }
  return (
    <main className="page org">
      <h1>{title}</h1>
      {organization.isLoading && <p className="muted">Loading…</p>}
      {organization.outside ? (
        <NotAnOrganization />
      ) : (
        organization.isError && (
          <>
            <InfoBanner type="error" title={firstErrorMessage(organization.error, SERVER_ERROR_MESSAGE)} />
            <PrimaryButton variant="secondary" onClick={() => void organization.refetch()}>
              Try Again
            </PrimaryButton>
          </>
        )
      )}
    </main>
  );
}
