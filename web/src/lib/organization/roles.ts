//! Organization roles (owner, admin, member) and how they read on screen, shared by the join
//! screen (auth) and the organization screens.

export const ROLES = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof ROLES)[number];

/** The roles an invite can give (the owner is only ever the creator). */
export const INVITABLE_ROLES = ['admin', 'member'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const ROLE_LABELS: Record<OrganizationRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

export function isRole(value: unknown): value is OrganizationRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** 'Owner', 'Admin', 'Member'; an unknown role is shown as the server sent it. */
export function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABELS[role] : role;
}
