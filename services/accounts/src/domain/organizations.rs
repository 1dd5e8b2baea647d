//! Organizations' invites, and the roles they give (the permission matrix is
//! [`evidentia_common::role::Role`]'s, shared with evidence).

use evidentia_common::errors::FieldError;
pub use evidentia_common::role::Role;
use rand::Rng;

use super::{Email, PhoneNumber};

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
    fn codes_avoid_look_alikes_and_normalize() {
        let code = new_code();
        assert_eq!(code.len(), 8);
        assert!(code.chars().all(|c| !"01OI".contains(c)));
        assert_eq!(normalize_code(" abcd-2345 "), "ABCD2345");
    }
}
