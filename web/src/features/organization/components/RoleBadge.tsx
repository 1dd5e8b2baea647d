//! A participant's or an invite's role as a badge: Owner, Admin, Member.
import { roleLabel } from '../../../lib/organization/roles';

export function RoleBadge({ role }: { role: string }) {
  return <span className={`org-badge org-badge--${role}`}>{roleLabel(role)}</span>;
}
