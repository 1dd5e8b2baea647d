//! The referrals domain: referral codes, invitations and promo codes, parsed once.

use evidentia_common::{
    contact::{Email, PhoneNumber},
    errors::FieldError,
};
use rand::Rng;

use crate::error::ReferralsError;

/// Referral codes are eight characters from an alphabet without look-alikes (no 0/O, 1/I/L), so
/// a code read aloud or typed from an SMS is unambiguous.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const REFERRAL_LENGTH: usize = 8;

pub fn generate_referral_code() -> String {
    let mut rng = rand::rng();
    (0..REFERRAL_LENGTH)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// A user's referral code and its type (`individual`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralCode {
    pub code: String,
    pub kind: String,
}

/// The one type of code there is (spec §3: the type defaults to 'individual').
pub const INDIVIDUAL: &str = "individual";

/// Who an invitation goes to: an e-mail address, or a phone number by SMS.
pub use evidentia_common::contact::Contact as Invitee;

/// The friend's address from the fields given: exactly one of an e-mail address and a phone
/// number (an empty phone number counts as not given).
pub fn parse_invitee(email: &str, phone: Option<(&str, &str)>) -> Result<Invitee, ReferralsError> {
    let phone = phone.filter(|(code, number)| !code.trim().is_empty() || !number.trim().is_empty());
    match (email.trim().is_empty(), phone) {
        (false, None) => Ok(Invitee::Email(Email::parse("email", email)?)),
        (true, Some((code, number))) => Ok(Invitee::Phone(PhoneNumber::parse(
            "phone_number",
            code,
            number,
        )?)),
        (true, None) => Err(ReferralsError::invalid(
            "email",
            "Enter your friend's e-mail address or phone number.",
        )),
        (false, Some(_)) => Err(ReferralsError::invalid(
            "email",
            "Send an invitation to an e-mail address or to a phone number, one at a time.",
        )),
    }
}

/// An account's phone number from an event, as [`PhoneNumber::e164`] writes it; no number at all
/// is ''.
pub fn phone_key(country_code: &str, national_number: &str) -> String {
    if national_number.trim().is_empty() {
        String::new()
    } else {
        format!("{}{}", country_code.trim(), national_number.trim())
    }
}

/// How a list of invitations is sorted (`?sorting=`): newest first unless asked otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sorting {
    Newest,
    Oldest,
    Name,
    Status,
}

impl Sorting {
    pub fn parse(value: &str) -> Result<Self, FieldError> {
        match value.trim() {
            "" | "newest" => Ok(Self::Newest),
            "oldest" => Ok(Self::Oldest),
            "name" => Ok(Self::Name),
            "status" => Ok(Self::Status),
            _ => Err(FieldError::new(
                "sorting",
                "Sort by newest, oldest, name or status.",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Newest => "newest",
            Self::Oldest => "oldest",
            Self::Name => "name",
            Self::Status => "status",
        }
    }
}

/// A referral code as typed: letters and digits, any case, spaces ignored.
pub fn typed_referral_code(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase()
}

/// Spec §3/§9: the code is 7 characters as typed, 'AAA AAA' (three, a space, three); the
/// space is the mask's, so the stored code is the six letters or digits.
pub const PROMO_LENGTH: usize = 6;

pub fn rejected(message: &str) -> ReferralsError {
    ReferralsError::invalid("code", message)
}

/// A promo code as stored: upper case, the mask's space removed (spec §5 "Promo code").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromoCodeText(String);

impl PromoCodeText {
    pub fn parse(code: &str) -> Result<Self, ReferralsError> {
        let code: String = code
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_uppercase();
        if code.chars().count() != PROMO_LENGTH || !code.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(rejected(
                "The promo code must be 7 characters: three, a space, three.",
            ));
        }
        Ok(Self(code))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referral_codes_use_the_unambiguous_alphabet() {
        for _ in 0..200 {
            let code = generate_referral_code();
            assert_eq!(code.len(), REFERRAL_LENGTH);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        }
    }

    #[test]
    fn the_mask_space_and_case_do_not_matter() {
        assert_eq!(PromoCodeText::parse("abc 123").unwrap().as_str(), "ABC123");
        assert_eq!(PromoCodeText::parse("ABC123").unwrap().as_str(), "ABC123");
    }

    #[test]
    fn an_invitation_goes_to_one_address() {
        let email = parse_invitee("Ann@Example.com", None).unwrap();
        assert_eq!(
            (email.channel(), email.address()),
            ("email", "ann@example.com".to_owned())
        );
        let phone = parse_invitee("", Some(("+1", "5550100123"))).unwrap();
        assert_eq!(
            (phone.channel(), phone.address()),
            ("sms", "+15550100123".to_owned())
        );
        assert_eq!(
            parse_invitee(" ", Some(("", ""))).unwrap_err().to_string(),
            "invalid fields"
        );
        assert!(parse_invitee("ann@example.com", Some(("+1", "5550100123"))).is_err());
        assert!(parse_invitee("not an address", None).is_err());
    }

    #[test]
    fn sorting_keys() {
        for key in ["newest", "oldest", "name", "status"] {
            assert_eq!(Sorting::parse(key).unwrap().as_str(), key);
        }
        assert_eq!(Sorting::parse("").unwrap(), Sorting::Newest);
        assert!(Sorting::parse("created_at").is_err());
    }

    #[test]
    fn a_code_of_another_length_or_with_symbols_is_refused() {
        for bad in ["AB 123", "ABCD 1234", "AB$ 123", ""] {
            assert!(PromoCodeText::parse(bad).is_err(), "{bad}");
        }
    }
}
