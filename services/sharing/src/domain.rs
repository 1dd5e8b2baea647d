//! Sharing's domain values, parsed once at the edge: copy types, recipients (spec §5 e-mail and
//! phone rules), transaction numbers, link secrets and access codes.

use std::fmt;

use evidentia_common::contact::{Email, PhoneNumber};
use rand::{Rng, distr::Alphanumeric};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyType {
    Authenticated,
    Unauthenticated,
}

impl CopyType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Authenticated => "authenticated",
            Self::Unauthenticated => "unauthenticated",
        }
    }

    pub fn from_db(value: &str) -> Self {
        if value == "authenticated" {
            Self::Authenticated
        } else {
            Self::Unauthenticated
        }
    }
}

/// How many people one share may go to.
pub const MAX_RECIPIENTS: usize = 20;

/// Where a recipient's link and codes go (spec §5 rules, the same as on a profile).
pub use evidentia_common::contact::Contact as Recipient;

/// How many executors one futuregram may have.
pub const MAX_EXECUTORS: usize = 10;

/// A futuregram's executor: reached by e-mail (their answer must give it), optionally by SMS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecutorContact {
    pub email: Email,
    pub phone: Option<PhoneNumber>,
}

impl ExecutorContact {
    pub fn phone_e164(&self) -> Option<String> {
        self.phone.as_ref().map(PhoneNumber::e164)
    }
}

/// The letters of transaction numbers: digits and capitals without the ones read as others
/// (0/O, 1/I/L) or spelling words by accident (U).
const NUMBER_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";

/// `EVD-XXXX-XXXX`: short, typable, unambiguous; about 6.6e11 of them, drawn at random (a
/// unique index catches the rare repeat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionNumber(String);

impl TransactionNumber {
    pub fn generate() -> Self {
        let mut rng = rand::rng();
        let mut part = || -> String {
            (0..4)
                .map(|_| char::from(NUMBER_ALPHABET[rng.random_range(0..NUMBER_ALPHABET.len())]))
                .collect()
        };
        Self(format!("EVD-{}-{}", part(), part()))
    }

    /// What a person typed: any case, spaces or dashes anywhere; `None` when it cannot be one.
    pub fn parse(typed: &str) -> Option<Self> {
        let letters: String = typed
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let rest = letters.strip_prefix("EVD")?;
        (rest.len() == 8 && rest.bytes().all(|b| NUMBER_ALPHABET.contains(&b)))
            .then(|| Self(format!("EVD-{}-{}", &rest[..4], &rest[4..])))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TransactionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A random secret for a link or an access token (43 URL-safe characters, 256 bits).
pub fn secret() -> String {
    rand::rng()
        .sample_iter(Alphanumeric)
        .take(43)
        .map(char::from)
        .collect()
}

/// How secrets and codes are stored: never as they were sent.
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Six digits (spec §3 "Confirmation code").
pub fn access_code() -> String {
    format!("{:06}", rand::rng().random_range(0..1_000_000u32))
}

/// A SHA-256 as 64 lowercase hex digits, or `None`.
pub fn parse_sha256(value: &str) -> Option<String> {
    let value = value.trim().to_ascii_lowercase();
    (value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit())).then_some(value)
}

/// A time as the service writes it for people, on a copy's banner and in messages: 'MMM D,
/// YYYY · HH:mm' (spec §9), in UTC, said so: a copy or a message leaves the owner's time zone
/// behind.
pub fn written_time(at: chrono::DateTime<chrono::Utc>) -> String {
    format!("{} UTC", at.format("%b %-d, %Y · %H:%M"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_written_time_follows_the_spec_format() {
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-04T09:05:00Z")
            .map(|t| t.with_timezone(&chrono::Utc))
            .unwrap_or_default();
        assert_eq!(super::written_time(at), "Nov 4, 2026 · 09:05 UTC");
    }

    use super::*;

    #[test]
    fn transaction_numbers_are_short_and_unambiguous() {
        for _ in 0..200 {
            let n = TransactionNumber::generate();
            assert_eq!(n.as_str().len(), 13);
            assert!(n.as_str().starts_with("EVD-"));
            for banned in ['0', 'O', '1', 'I', 'L', 'U'] {
                assert!(!n.as_str()[4..].contains(banned), "{n}");
            }
            assert_eq!(TransactionNumber::parse(n.as_str()), Some(n));
        }
    }

    #[test]
    fn typed_transaction_numbers_are_normalised() {
        assert_eq!(
            TransactionNumber::parse(" evd 7k3q-9xtm ").map(|n| n.to_string()),
            Some("EVD-7K3Q-9XTM".to_owned())
        );
        assert_eq!(TransactionNumber::parse("EVD-7K3Q-9XT0"), None);
        assert_eq!(TransactionNumber::parse("EVD-2026-000042"), None);
        assert_eq!(TransactionNumber::parse(""), None);
    }

    #[test]
    fn recipients_print_and_mask_their_address() {
        let phone = Recipient::Phone(PhoneNumber::parse("r", "+1", "5551234567").unwrap());
        assert_eq!(phone.address(), "+15551234567");
        assert_eq!(phone.sent_to(), "+1 5551234567");
        assert_eq!(phone.channel(), "sms");
        assert_eq!(
            Recipient::masked("sms", "+15551234567", "+1 5551234567"),
            "+1 *******567"
        );
        let email = Recipient::Email(Email::parse("r", "Ann@Example.com").unwrap());
        assert_eq!(email.address(), "ann@example.com");
        assert_eq!(
            Recipient::masked("email", "ann@example.com", "ann@example.com"),
            "a***@example.com"
        );
    }

    #[test]
    fn secrets_are_long_and_hashed() {
        let s = secret();
        assert_eq!(s.len(), 43);
        assert_ne!(secret(), s);
        assert_eq!(hash_secret(&s).len(), 32);
        assert_eq!(access_code().len(), 6);
        assert!(parse_sha256(&"Ab".repeat(32)).is_some());
        assert!(parse_sha256("abc").is_none());
    }
}
