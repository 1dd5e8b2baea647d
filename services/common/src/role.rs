//! Organizations' roles and their permission matrix (docs/decisions.md), which accounts enforces
//! on invites and participants and evidence on templates and folders:
//! owner: invite (admin or member), revoke invites, change roles, remove anyone but themselves;
//! admin: invite members, revoke invites, remove members; member: see the participants.
//! Owners and admins also shape the organization's work (templates, renaming or deleting what
//! is in its folders).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Owner,
    Admin,
    Member,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Admin => "admin",
            Self::Member => "member",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "owner" => Some(Self::Owner),
            "admin" => Some(Self::Admin),
            "member" => Some(Self::Member),
            _ => None,
        }
    }

    /// A stored role; the database allows no other values, and an unknown one is given the
    /// least power.
    pub fn stored(value: &str) -> Self {
        Self::parse(value).unwrap_or(Self::Member)
    }

    /// Owners and admins shape the organization's work: templates, and renaming or deleting
    /// what is in its folders.
    pub fn manages(self) -> bool {
        matches!(self, Self::Owner | Self::Admin)
    }

    /// Which roles this role may invite.
    pub fn may_invite(self, role: Role) -> bool {
        match self {
            Self::Owner => matches!(role, Role::Admin | Role::Member),
            Self::Admin => role == Role::Member,
            Self::Member => false,
        }
    }

    pub fn may_revoke_invites(self) -> bool {
        matches!(self, Self::Owner | Self::Admin)
    }

    pub fn may_see_invites(self) -> bool {
        self.may_revoke_invites()
    }

    pub fn may_remove(self, target: Role) -> bool {
        match self {
            Self::Owner => target != Role::Owner,
            Self::Admin => target == Role::Member,
            Self::Member => false,
        }
    }

    pub fn may_change_roles(self) -> bool {
        self == Self::Owner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_role_matrix() {
        use Role::*;
        assert!(Owner.may_invite(Admin) && Owner.may_invite(Member) && !Owner.may_invite(Owner));
        assert!(!Admin.may_invite(Admin) && Admin.may_invite(Member));
        assert!(!Member.may_invite(Member));
        assert!(Owner.may_remove(Admin) && Owner.may_remove(Member) && !Owner.may_remove(Owner));
        assert!(!Admin.may_remove(Admin) && Admin.may_remove(Member));
        assert!(!Member.may_remove(Member));
        assert!(Owner.may_change_roles() && !Admin.may_change_roles());
        assert!(Admin.may_see_invites() && !Member.may_see_invites());
        assert!(Owner.manages() && Admin.manages() && !Member.manages());
        assert_eq!(Role::stored("admin"), Admin);
        assert_eq!(Role::stored("anything else"), Member);
    }
}
