//! The referrals domain: referral codes and promo codes, parsed once.

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
    fn a_code_of_another_length_or_with_symbols_is_refused() {
        for bad in ["AB 123", "ABCD 1234", "AB$ 123", ""] {
            assert!(PromoCodeText::parse(bad).is_err(), "{bad}");
        }
    }
}
