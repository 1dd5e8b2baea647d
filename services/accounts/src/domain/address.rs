//! The profile's address (spec §5 "Address"): each field with its rules, and the postal
//! patterns of the countries that have one.

use std::sync::LazyLock;

use evidentia_common::errors::FieldError;
use regex::Regex;

use super::{Fields, REQUIRED, single_line};

static LETTERS: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // a constant pattern, checked by the tests
    Regex::new(r"^\p{L}[\p{L} .'-]*$").expect("letters pattern")
});

/// The address of the profile (spec §5 "Address"), each field with its rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub country: String,
    pub apartment_number: String,
    pub province: String,
    pub street: String,
    pub house: String,
    pub city: String,
    pub zip_code: String,
}

struct TextRule {
    required: bool,
    max: usize,
    min: usize,
    letters: bool,
}

fn text(field: &str, value: &str, rule: TextRule) -> Result<String, FieldError> {
    let value = value.trim();
    single_line(field, value)?;
    if value.is_empty() {
        return if rule.required {
            Err(FieldError::new(field, REQUIRED))
        } else {
            Ok(String::new())
        };
    }
    let len = value.chars().count();
    if len > rule.max {
        return Err(FieldError::new(
            field,
            format!("Maximum {} characters", rule.max),
        ));
    }
    if rule.letters && !LETTERS.is_match(value) {
        return Err(FieldError::new(
            field,
            "Incorrect input. Only letters allowed",
        ));
    }
    if len < rule.min {
        return Err(FieldError::new(
            field,
            format!("Minimum {} characters", rule.min),
        ));
    }
    Ok(value.to_owned())
}

impl Address {
    /// Checks every field; all problems are reported at once.
    pub fn parse(input: &Address) -> Result<Self, Vec<FieldError>> {
        let mut fields = Fields::default();
        let rule = |max, min, letters| TextRule {
            required: true,
            max,
            min,
            letters,
        };
        let address = Self {
            country: fields
                .check(text("country", &input.country, rule(50, 2, true)))
                .unwrap_or_default(),
            apartment_number: fields
                .check(text(
                    "apartment_number",
                    &input.apartment_number,
                    TextRule {
                        required: false,
                        max: 9,
                        min: 0,
                        letters: false,
                    },
                ))
                .unwrap_or_default(),
            province: fields
                .check(text("province", &input.province, rule(30, 2, true)))
                .unwrap_or_default(),
            street: fields
                .check(text("street", &input.street, rule(50, 2, false)))
                .unwrap_or_default(),
            house: fields
                .check(text("house", &input.house, rule(9, 0, false)))
                .unwrap_or_default(),
            city: fields
                .check(text("city", &input.city, rule(50, 2, true)))
                .unwrap_or_default(),
            zip_code: fields
                .check(text("zip_code", &input.zip_code, rule(9, 0, false)))
                .unwrap_or_default(),
        };
        if let Some(pattern) = postal_pattern(&address.country)
            && !address.zip_code.is_empty()
            && !fits(pattern, &address.zip_code)
        {
            fields.check::<()>(Err(FieldError::new("zip_code", "Invalid zip code format")));
        }
        fields.finish().map(|()| address)
    }
}

/// The §5 postal patterns ('ddd ddd', 'xxx xxx', 'dd dd') mapped to the countries whose real
/// postal codes have one of those shapes: only Canada's 'xxx xxx' (docs/decisions.md; the web's
/// `components/address/postal.ts` holds the same mapping).
fn postal_pattern(country: &str) -> Option<&'static str> {
    match country.trim().to_lowercase().as_str() {
        "canada" | "ca" => Some("xxx xxx"),
        _ => None,
    }
}

/// `d` a digit, `x` a letter or digit, anything else itself.
fn fits(pattern: &str, value: &str) -> bool {
    value.chars().count() == pattern.chars().count()
        && pattern.chars().zip(value.chars()).all(|(p, c)| match p {
            'd' => c.is_ascii_digit(),
            'x' => c.is_ascii_alphanumeric(),
            other => c == other,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_rules_follow_spec_section_5() {
        let good = Address {
            country: "Côte d'Ivoire".into(),
            apartment_number: String::new(),
            province: "New York".into(),
            street: "Main Street".into(),
            house: "12a".into(),
            city: "St. Louis".into(),
            zip_code: "12345".into(),
        };
        assert_eq!(Address::parse(&good), Ok(good.clone()));
        let bad = Address {
            country: "France1".into(),
            apartment_number: "1234567890".into(),
            province: "A".repeat(31),
            street: String::new(),
            house: "1234567890".into(),
            city: "B".into(),
            zip_code: "1234567890".into(),
        };
        let errors = Address::parse(&bad).expect_err("bad address");
        let messages: Vec<_> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                ("country", "Incorrect input. Only letters allowed"),
                ("apartment_number", "Maximum 9 characters"),
                ("province", "Maximum 30 characters"),
                ("street", "This field is required"),
                ("house", "Maximum 9 characters"),
                ("city", "Minimum 2 characters"),
                ("zip_code", "Maximum 9 characters"),
            ]
        );
    }

    #[test]
    fn a_canadian_zip_code_fills_the_xxx_xxx_pattern() {
        let canadian = |zip: &str| Address {
            country: "Canada".into(),
            province: "Ontario".into(),
            street: "Wellington Street".into(),
            house: "111".into(),
            city: "Ottawa".into(),
            zip_code: zip.into(),
            ..Address::default()
        };
        assert!(Address::parse(&canadian("K1A 0B1")).is_ok());
        for bad in ["K1A0B1", "K1A-0B1", "K1A 0B"] {
            let errors = Address::parse(&canadian(bad)).expect_err("bad zip");
            assert_eq!(
                (errors[0].field.as_str(), errors[0].message.as_str()),
                ("zip_code", "Invalid zip code format")
            );
        }
        let mut french = canadian("75001");
        french.country = "France".into();
        assert!(
            Address::parse(&french).is_ok(),
            "other countries keep max 9"
        );
    }
}
