//! Organizations' roles and the permission matrix (docs/decisions.md), and invites.
//! owner: invite (admin or member), revoke invites, change roles, remove anyone but themselves;
//! admin: invite members, revoke invites, remove members; member: see the participants.

use evidentia_common::errors::FieldError;
use rand::Rng;

use super::{Email, PhoneNumber};

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

/// An invite's role, or a participant's new one: admin or member (there is one owner).
pub fn invite_role(value: &str) -> Result<Role, FieldError> {
    match Role::parse(value) {
        Some(role @ (Role::Admin | Role::Member)) => Ok(role),
        _ => Err(FieldError::new("role", "Choose admin or member.")),
    }
}

pub const INVITE_NOT_FOUND: &str = "Invite not found.";
pub const PARTICIPANT_NOT_FOUND: &str = "Participant not found.";
pub const INVITE_NOT_VALID: &str = "This invite code is not valid.";

/// Who is invited: an e-mail or a phone number.
#[derive(Debug, Clone)]
pub enum Invitee {
    Email(Email),
    Phone(PhoneNumber),
}

/// A checked invite: who, and as what.
#[derive(Debug, Clone)]
pub struct NewInvite {
    pub invitee: Invitee,
    pub role: Role,
}

const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// An invite code: eight characters without the look-alikes 0/O and 1/I.
pub fn new_code() -> String {
    let mut rng = rand::rng();
    (0..8)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// An invite code as typed: spaces and dashes dropped, upper case.
pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_uppercase()
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
    }

    #[test]
    fn codes_avoid_look_alikes_and_normalize() {
        let code = new_code();
        assert_eq!(code.len(), 8);
        assert!(code.chars().all(|c| !"01OI".contains(c)));
        assert_eq!(normalize_code(" abcd-2345 "), "ABCD2345");
    }
}
