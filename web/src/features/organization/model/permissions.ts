//! Who may do what in an organization (the role matrix): the owner invites admins and
//! members, revokes invites, removes anyone but themself and changes roles; an admin invites
//! members, revokes invites and removes members; a member only looks. The screens show a control
//! only where this allows it.
import type { InvitableRole, OrganizationRole } from '../../../lib/organization/roles';

/** The participant a control would act on. */
export interface Target {
  role: string;
}

export function canInvite(me: OrganizationRole): boolean {
  return me === 'owner' || me === 'admin';
}

/** The roles `me` may give in an invite: an admin invites members only (as the server decides). */
export function invitableRoles(me: OrganizationRole): InvitableRole[] {
  if (me === 'owner') return ['admin', 'member'];
  if (me === 'admin') return ['member'];
  return [];
}

export function canRevokeInvites(me: OrganizationRole): boolean {
  return me === 'owner' || me === 'admin';
}

/**
 * The owner removes anyone but themself: there is one owner, so every other participant is not
 * the owner. An admin removes members only.
 */
export function canRemove(me: OrganizationRole, target: Target): boolean {
  if (me === 'owner') return target.role !== 'owner';
  if (me === 'admin') return target.role === 'member';
  return false;
}

/** Only the owner changes roles, of anyone but themself, between admin and member. */
export function canChangeRole(me: OrganizationRole, target: Target): boolean {
  return me === 'owner' && target.role !== 'owner';
}

/** A participant's name for lists and dialogs: first and last name, or else the username. */
export function displayName(participant: { firstName?: string | null; lastName?: string | null; username: string }): string {
  const full = [participant.firstName, participant.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return full || participant.username;
}

/** Owners and admins create, edit and archive capture templates; a member reads them and starts folders. */
export function canManageTemplates(me: OrganizationRole): boolean {
  return me === 'owner' || me === 'admin';
}
