//! What a confirmation code is for and where a message goes.

use evidentia_common::text::{mask_email, mask_phone};

/// What a code or a verification proves. Stored as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    SignUp,
    PasswordReset,
    EmailChange,
    PhoneChange,
    /// A password verification before a sensitive change (no code: the password itself).
    Password,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignUp => "sign_up",
            Self::PasswordReset => "password_reset",
            Self::EmailChange => "email_change",
            Self::PhoneChange => "phone_change",
            Self::Password => "password",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Sms,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "email" => Some(Self::Email),
            "sms" => Some(Self::Sms),
            _ => None,
        }
    }
}

/// Where a message goes: an e-mail address or an E.164 phone number, and how it is shown back to
/// the user (`a***@example.com`, `+1 *******100`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    pub channel: Channel,
    pub address: String,
    pub masked: String,
}

impl Destination {
    pub fn email(address: &str) -> Self {
        Self {
            channel: Channel::Email,
            address: address.to_owned(),
            masked: mask_email(address),
        }
    }

    pub fn phone(country_code: &str, national_number: &str) -> Self {
        Self {
            channel: Channel::Sms,
            address: format!("{country_code}{national_number}"),
            masked: mask_phone(country_code, national_number),
        }
    }
}

/// The mailbox an address reaches: lower case, without a `+tag` in an e-mail's local part
/// (`Ann+1@x.com` and `ann@x.com` are one inbox). Phone numbers pass unchanged.
pub fn mailbox(address: &str) -> String {
    let address = address.trim().to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plus_tags_and_case_reach_one_mailbox() {
        assert_eq!(mailbox("Ann+1@Example.com"), "ann@example.com");
        assert_eq!(mailbox("ann+x+y@example.com"), "ann@example.com");
        assert_eq!(mailbox("ann@example.com"), "ann@example.com");
        assert_eq!(mailbox("+447700900123"), "+447700900123");
    }

    #[test]
    fn addresses_are_masked() {
        assert_eq!(
            Destination::email("ann@example.com").masked,
            "a***@example.com"
        );
        assert_eq!(
            Destination::phone("+1", "4155550100").masked,
            "+1 *******100"
        );
    }
}
