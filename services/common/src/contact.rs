//! The spec's §5 rules for the two ways of reaching a person, an e-mail address and a phone
//! number: accounts keeps them on profiles, sharing sends copies to them, and both answer a bad
//! one with the same messages.

use std::sync::LazyLock;

use regex::Regex;

use crate::errors::FieldError;

pub const REQUIRED: &str = "This field is required";

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // a constant pattern, checked by the tests
    Regex::new(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$").expect("e-mail pattern")
});

/// Refuses an empty or blank value with the spec's 'This field is required'.
pub fn required(field: &str, value: &str) -> Result<(), FieldError> {
    if value.trim().is_empty() {
        Err(FieldError::new(field, REQUIRED))
    } else {
        Ok(())
    }
}

/// Refuses control characters, line breaks and direction overrides in a one-line value.
pub fn single_line(field: &str, value: &str) -> Result<(), FieldError> {
    if crate::text::has_refused_single_line(value) {
        return Err(FieldError::new(field, crate::text::REFUSED_CHARACTERS));
    }
    Ok(())
}

/// A first or last name: 2 to 150 characters when given (sign-up does not ask for them).
pub fn optional_name(field: &str, value: &str) -> Result<String, FieldError> {
    let value = value.trim();
    single_line(field, value)?;
    if value.is_empty() {
        return Ok(String::new());
    }
    let len = value.chars().count();
    if len < 2 {
        return Err(FieldError::new(field, "Minimum 2 characters"));
    }
    if len > 150 {
        return Err(FieldError::new(field, "Maximum 150 characters"));
    }
    Ok(value.to_owned())
}

/// An e-mail address: required, a valid pattern, at most 150 characters; kept lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
        let value = value.trim();
        required(field, value)?;
        if value.chars().count() > 150 {
            return Err(FieldError::new(field, "Maximum 150 characters"));
        }
        if !EMAIL.is_match(value) {
            return Err(FieldError::new(field, "Please enter a valid email address"));
        }
        Ok(Self(value.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A phone number: a known country calling code ('+' and 1 to 5 digits) and 9 to 11 digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneNumber {
    pub country_code: String,
    pub national_number: String,
}

impl PhoneNumber {
    pub fn parse(
        field: &str,
        country_code: &str,
        national_number: &str,
    ) -> Result<Self, FieldError> {
        let country_code = country_code.trim();
        let national_number = national_number.trim();
        required(field, national_number)?;
        let digits = country_code.strip_prefix('+').unwrap_or("");
        let known = (1..=5).contains(&digits.len())
            && digits.chars().all(|c| c.is_ascii_digit())
            && digits
                .parse::<u16>()
                .ok()
                .and_then(|code| phonenumber::metadata::DATABASE.by_code(&code))
                .is_some();
        if !known {
            return Err(FieldError::new(field, "Invalid country code"));
        }
        if !national_number.chars().all(|c| c.is_ascii_digit()) {
            return Err(FieldError::new(field, "Only digits allowed"));
        }
        let len = national_number.len();
        if len < 9 {
            return Err(FieldError::new(field, "Minimum 9 digits"));
        }
        if len > 11 {
            return Err(FieldError::new(field, "Maximum 11 digits"));
        }
        Ok(Self {
            country_code: country_code.to_owned(),
            national_number: national_number.to_owned(),
        })
    }

    /// The number as messages are sent to it and as it is compared: E.164, '+15550100123'.
    pub fn e164(&self) -> String {
        format!("{}{}", self.country_code, self.national_number)
    }
}

/// Where a message to someone goes: an e-mail address, or a phone number by SMS (a share's
/// recipient, a friend's invitation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contact {
    Email(Email),
    Phone(PhoneNumber),
}

impl Contact {
    /// `email` or `sms`.
    pub fn channel(&self) -> &'static str {
        match self {
            Self::Email(_) => "email",
            Self::Phone(_) => "sms",
        }
    }

    /// The address as messages go to it and as it is stored and compared: a lower-case e-mail
    /// address, or the number in E.164.
    pub fn address(&self) -> String {
        match self {
            Self::Email(email) => email.as_str().to_owned(),
            Self::Phone(phone) => phone.e164(),
        }
    }

    /// The field a refusal of this address is reported on.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Email(_) => "email",
            Self::Phone(_) => "phone_number",
        }
    }

    /// The address as a person reads it: the e-mail address, or the country code and the number.
    pub fn sent_to(&self) -> String {
        match self {
            Self::Email(email) => email.as_str().to_owned(),
            Self::Phone(phone) => format!("{} {}", phone.country_code, phone.national_number),
        }
    }

    /// A stored address as someone holding only a link may see it: `channel`, `address` and
    /// `sent_to` as [`Contact::channel`], [`Contact::address`] and [`Contact::sent_to`] wrote them.
    pub fn masked(channel: &str, address: &str, sent_to: &str) -> String {
        match channel {
            "email" => crate::text::mask_email(address),
            "sms" => match sent_to.split_once(' ') {
                Some((code, number)) => crate::text::mask_phone(code, number),
                None => crate::text::mask_phone("", sent_to),
            },
            _ => sent_to.to_owned(),
        }
    }
}
