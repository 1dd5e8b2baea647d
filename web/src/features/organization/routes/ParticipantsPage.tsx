//! `/organization-participants` (signed in): the organization's participants (name or username,
//! e-mail, role, joined date) and, for the owner and admins, the pending invites. Controls follow
//! the role matrix (model/permissions.ts): invite and revoke (owner, admin), remove (owner: anyone
//! but themself; admin: members), change a role (owner). Members see the list only.
import { useState } from 'react';
import { useAppDispatch } from '../../../lib/store/hooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { InfoBanner } from '../../../components/InfoBanner';
import { PrimaryButton } from '../../../components/PrimaryButton';
import { errorStatus, firstErrorMessage, SERVER_ERROR_MESSAGE } from '../../../lib/api/errors';
import type { Invite, Participant } from '../../../lib/api/types';
import { formatDate } from '../../../lib/format/format';
import {
  INVITABLE_ROLES,
  isRole,
  ROLE_LABELS,
  roleLabel,
  type InvitableRole,
  type OrganizationRole,
} from '../../../lib/organization/roles';
import { showSnackbar } from '../../../lib/ui/uiSlice';
import {
  useChangeRoleMutation,
  useParticipantsQuery,
  useRemoveParticipantMutation,
  useRevokeInviteMutation,
  useOwnOrganization,
} from '../api/organizationApi';
import { InviteDialog } from '../components/InviteDialog';
import { NotAnOrganization } from '../components/NotAnOrganization';
import { RoleBadge } from '../components/RoleBadge';
import { FAILED_MESSAGE, INVITE_REVOKED, PARTICIPANT_REMOVED, roleChangedMessage } from '../model/messages';
import { canChangeRole, canInvite, canRemove, canRevokeInvites, displayName, invitableRoles } from '../model/permissions';
import { BackControl } from '../../../components/BackControl';
import '../organization.css';

export const ORGANIZATION_CAPTURES = '/dashboard/organization-captures';

/** Where an account outside any organization came from, or returns to while this one loads. */
const SETTINGS = '/dashboard/settings';

export function ParticipantsPage() {
  const organization = useOwnOrganization();

  if (organization.isLoading) {
    return (
      <main className="page">
        <BackControl to={SETTINGS} label="Settings" />
        <h1>Participants</h1>
        <p className="muted">Loading…</p>
      </main>
    );
  }
  if (!organization.data) {
    return (
      <main className="page">
        <BackControl to={SETTINGS} label="Settings" />
        <h1>Participants</h1>
        {organization.outside ? (
          <NotAnOrganization />
        ) : (
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
  const role = organization.data.role;
  // An unknown role gets no controls, as a member's.
  return <Participants organizationName={organization.data.name} role={isRole(role) ? role : 'member'} />;
}

function Participants({ organizationName, role }: { organizationName: string; role: OrganizationRole }) {
  const dispatch = useAppDispatch();
  const list = useParticipantsQuery();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Participant | null>(null);
  const [removeParticipant, removal] = useRemoveParticipantMutation();
  const [revokeInvite, revocation] = useRevokeInviteMutation();
  const [changeRole, roleChange] = useChangeRoleMutation();

  const report = (result: { error?: unknown }, done: string) => {
    if (result.error === undefined) {
      dispatch(showSnackbar({ message: done, type: 'info' }));
      return;
    }
    const status = errorStatus(result.error);
    // The base query already shows the generic message for a 5xx answer.
    if (status === undefined || status < 500) {
      dispatch(showSnackbar({ message: firstErrorMessage(result.error, FAILED_MESSAGE), type: 'error' }));
    }
  };

  const remove = async (participant: Participant) => {
    const result = await removeParticipant(participant.userId);
    setRemoving(null);
    report(result, PARTICIPANT_REMOVED);
  };

  const revoke = async (invite: Invite) => report(await revokeInvite(invite.id), INVITE_REVOKED);

  const change = async (participant: Participant, next: InvitableRole) => {
    if (next === participant.role) return;
    report(await changeRole({ userId: participant.userId, role: next }), roleChangedMessage(displayName(participant), ROLE_LABELS[next]));
  };

  const participants: Participant[] = list.data?.participants ?? [];
  const invites: Invite[] = list.data?.invites ?? [];

  return (
    <main className="page org">
      <BackControl to={ORGANIZATION_CAPTURES} label={organizationName} />
      <h1>Participants</h1>
      <p className="muted">
        {organizationName} · your role: <strong data-testid="my-role">{roleLabel(role)}</strong>
      </p>
      {canInvite(role) && <PrimaryButton onClick={() => setInviting(true)}>Invite Participant</PrimaryButton>}

      {list.isLoading && <p className="muted">Loading…</p>}
      {list.isError && (
        <>
          <InfoBanner type="error" title={firstErrorMessage(list.error, SERVER_ERROR_MESSAGE)} />
          <PrimaryButton variant="secondary" onClick={() => void list.refetch()}>
            Try Again
          </PrimaryButton>
        </>
      )}

      {list.data && (
        <section>
          <p className="muted" data-testid="participant-count">
            {participants.length === 1 ? '1 participant' : `${participants.length} participants`}
          </p>
          <ul className="org-list" aria-label="Participants">
            {participants.map((participant) => {
              const name = displayName(participant);
              return (
                <li key={participant.userId} className="org-row" data-testid="participant">
                  <div className="org-row__body">
                    <span className="org-row__name">{name}</span>
                    <span className="muted">{participant.email}</span>
                    <span className="muted">Joined {formatDate(participant.joinedAt)}</span>
                  </div>
                  <div className="org-row__side">
                    {canChangeRole(role, participant) ? (
                      <select
                        className="org-row__role"
                        aria-label={`Role of ${name}`}
                        value={participant.role}
                        disabled={roleChange.isLoading}
                        onChange={(e) => void change(participant, e.target.value as InvitableRole)}
                      >
                        {INVITABLE_ROLES.map((option) => (
                          <option key={option} value={option}>
                            {ROLE_LABELS[option]}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <RoleBadge role={participant.role} />
                    )}
                    {canRemove(role, participant) && (
                      <button
                        type="button"
                        className="link org-row__action"
                        aria-label={`Remove ${name}`}
                        onClick={() => setRemoving(participant)}
                      >
                        Remove
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {list.data && canRevokeInvites(role) && (
        <section aria-labelledby="org-invites-title">
          <h2 id="org-invites-title" className="org__section-title">
            Pending Invites
          </h2>
          {invites.length === 0 ? (
            <p className="muted">No pending invites.</p>
          ) : (
            <ul className="org-list" aria-label="Pending invites">
              {invites.map((invite) => (
                <li key={invite.id} className="org-row" data-testid="invite">
                  <div className="org-row__body">
                    <span className="org-row__name">{invite.sentTo}</span>
                    <span className="muted">
                      {invite.channel === 'sms' ? 'By SMS' : 'By E-mail'} · Expires {formatDate(invite.expiresAt)}
                    </span>
                  </div>
                  <div className="org-row__side">
                    <RoleBadge role={invite.role} />
                    <button
                      type="button"
                      className="link org-row__action"
                      aria-label={`Revoke the invite to ${invite.sentTo}`}
                      disabled={revocation.isLoading}
                      onClick={() => void revoke(invite)}
                    >
                      Revoke
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {inviting && <InviteDialog roles={invitableRoles(role)} onClose={() => setInviting(false)} />}
      <ConfirmDialog
        isOpen={removing !== null}
        title="Remove Participant?"
        subTitle={removing ? `${displayName(removing)} will no longer be a participant of ${organizationName}.` : undefined}
        buttons={[
          { text: 'Remove', isHighlighted: true, disabled: removal.isLoading, onClick: () => removing && void remove(removing) },
          { text: 'Cancel', onClick: () => setRemoving(null) },
        ]}
      />
    </main>
  );
}
