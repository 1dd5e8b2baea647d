//! Validated values of the accounts domain (spec §5). A value that exists passed its rules; the
//! messages are the spec's, word for word, where it gives them. No database, no wire format.

mod address;
pub mod deletion;
pub mod history;
mod messages;
pub mod organizations;
mod secrets;
pub mod support;

use evidentia_common::errors::FieldError;

pub use address::Address;
pub use evidentia_common::contact::{
    Email, PhoneNumber, REQUIRED, optional_name, required, single_line,
};
pub use history::{Action, Seen};
pub use messages::{Channel, Destination, Purpose, mailbox};
pub use secrets::{hash, random_token};

/// A username: a-z A-Z 0-9 @ + - . _, 2 to 20 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
        let value = value.trim();
        required(field, value)?;
        if !value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | '+' | '-' | '.' | '_'))
        {
            return Err(FieldError::new(field, "Please enter a valid username"));
        }
        let len = value.chars().count();
        if len < 2 {
            return Err(FieldError::new(field, "Minimum 2 characters"));
        }
        if len > 20 {
            return Err(FieldError::new(field, "Maximum 20 characters"));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A new password: 8 to 32 characters with an upper-case letter, a lower-case letter, a digit
/// and one of `#?!@$%^&*-`.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

impl Password {
    pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
        if value.is_empty() {
            return Err(FieldError::new(field, REQUIRED));
        }
        let len = value.chars().count();
        if len < 8 {
            return Err(FieldError::new(field, "Minimum 8 characters"));
        }
        if len > 32 {
            return Err(FieldError::new(field, "Maximum 32 characters"));
        }
        let strong = value.chars().any(|c| c.is_ascii_uppercase())
            && value.chars().any(|c| c.is_ascii_lowercase())
            && value.chars().any(|c| c.is_ascii_digit())
            && value.chars().any(|c| "#?!@$%^&*-".contains(c));
        if !strong {
            return Err(FieldError::new(field, "Wrong Password. Please try again"));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Names and address lines are one line of plain text: no control characters, line breaks or
/// bidirectional overrides (the gateway refuses the first and last already; this keeps the rule
/// with the domain for any other caller).
/// A first or last name on the profile: required, 2 to 150 characters.
pub fn name(field: &str, value: &str) -> Result<String, FieldError> {
    required(field, value)?;
    optional_name(field, value)
}

/// Short text (an organization's name): 3 to 30 characters.
pub fn short_text(field: &str, value: &str) -> Result<String, FieldError> {
    let value = value.trim();
    single_line(field, value)?;
    required(field, value)?;
    let len = value.chars().count();
    if len < 3 {
        return Err(FieldError::new(field, "Minimum 3 characters"));
    }
    if len > 30 {
        return Err(FieldError::new(field, "Maximum 30 characters"));
    }
    Ok(value.to_owned())
}

/// A validated sign-up (or a participant joining an organization).
#[derive(Debug)]
pub struct NewAccount {
    pub username: Username,
    pub email: Email,
    pub phone: PhoneNumber,
    pub password: Password,
    pub first_name: String,
    pub last_name: String,
    pub verification_token: String,
    /// A friend's referral code from their invitation link, upper case, or empty. Only its form
    /// is checked here: whose it is, the referrals service decides from `AccountCreated`.
    pub referral_code: String,
}

/// A referral code as typed or carried by a link: up to 20 letters and digits (case and
/// surrounding spaces do not matter); empty when none was given.
pub fn referral_code(field: &str, value: &str) -> Result<String, FieldError> {
    let code = value.trim().to_uppercase();
    if code.chars().count() > 20 || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(FieldError::new(field, "This referral code is not valid."));
    }
    Ok(code)
}

pub const USERNAME_TAKEN: &str = "A user with that username already exists.";
pub const EMAIL_TAKEN: &str = "A user with that email already exists.";
pub const PHONE_TAKEN: &str = "A user with that phone number already exists.";

/// Collects field errors so a form gets all of them at once.
#[derive(Debug, Default)]
pub struct Fields(Vec<FieldError>);

impl Fields {
    pub fn check<T>(&mut self, result: Result<T, FieldError>) -> Option<T> {
        result.map_err(|e| self.0.push(e)).ok()
    }

    pub fn finish(self) -> Result<(), Vec<FieldError>> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<T: std::fmt::Debug>(r: Result<T, FieldError>) -> String {
        r.expect_err("should be rejected").message
    }

    #[test]
    fn email_rules_follow_spec_section_5() {
        assert_eq!(message(Email::parse("email", "")), "This field is required");
        assert_eq!(
            message(Email::parse("email", "not-an-email")),
            "Please enter a valid email address"
        );
        let long = format!("{}@example.com", "a".repeat(140));
        assert_eq!(
            message(Email::parse("email", &long)),
            "Maximum 150 characters"
        );
        assert_eq!(
            Email::parse("email", " Ann@Example.COM ").map(|e| e.as_str().to_owned()),
            Ok("ann@example.com".into())
        );
    }

    #[test]
    fn username_rules_follow_spec_section_5() {
        assert_eq!(
            message(Username::parse("username", "")),
            "This field is required"
        );
        assert_eq!(
            message(Username::parse("username", "a")),
            "Minimum 2 characters"
        );
        assert_eq!(
            message(Username::parse("username", &"a".repeat(21))),
            "Maximum 20 characters"
        );
        assert_eq!(
            message(Username::parse("username", "bad name")),
            "Please enter a valid username"
        );
        assert!(Username::parse("username", "ann.o+k@x_-1").is_ok());
    }

    #[test]
    fn password_rules_follow_spec_section_5() {
        assert_eq!(
            message(Password::parse("password", "")),
            "This field is required"
        );
        assert_eq!(
            message(Password::parse("password", "Ab1!")),
            "Minimum 8 characters"
        );
        assert_eq!(
            message(Password::parse(
                "password",
                &format!("Ab1!{}", "a".repeat(29))
            )),
            "Maximum 32 characters"
        );
        assert_eq!(
            message(Password::parse("password", "abcdefgh1!")),
            "Wrong Password. Please try again"
        );
        assert_eq!(
            message(Password::parse("password", "Abcdefgh1")),
            "Wrong Password. Please try again"
        );
        assert!(Password::parse("password", "Abcdefg1#").is_ok());
    }

    #[test]
    fn phone_rules_follow_spec_section_5() {
        assert_eq!(
            message(PhoneNumber::parse("phone_number", "+999", "4155550100")),
            "Invalid country code"
        );
        assert_eq!(
            message(PhoneNumber::parse("phone_number", "1", "4155550100")),
            "Invalid country code"
        );
        assert_eq!(
            message(PhoneNumber::parse("phone_number", "+1", "41555")),
            "Minimum 9 digits"
        );
        assert_eq!(
            message(PhoneNumber::parse("phone_number", "+1", "415555010012")),
            "Maximum 11 digits"
        );
        assert_eq!(
            message(PhoneNumber::parse("phone_number", "+1", "41555e0100")),
            "Only digits allowed"
        );
        assert!(PhoneNumber::parse("phone_number", "+44", "7911123456").is_ok());
        assert!(PhoneNumber::parse("phone_number", "+1", "4155550100").is_ok());
    }

    #[test]
    fn short_text_and_required_names() {
        assert_eq!(
            message(short_text("organization_name", "AB")),
            "Minimum 3 characters"
        );
        assert_eq!(
            message(short_text("organization_name", &"A".repeat(31))),
            "Maximum 30 characters"
        );
        assert_eq!(message(name("first_name", " ")), "This field is required");
        assert_eq!(name("first_name", " Ann "), Ok("Ann".into()));
    }

    #[test]
    fn names_are_optional_but_bounded() {
        assert_eq!(optional_name("first_name", ""), Ok(String::new()));
        assert_eq!(
            message(optional_name("first_name", "A")),
            "Minimum 2 characters"
        );
        assert!(optional_name("first_name", "Ann").is_ok());
    }
}
