//! The one rule for the `Idempotency-Key` of a money-moving call, whichever service takes it: 1 to
//! 255 visible ASCII characters. A missing key (the gateway passes an absent header on as empty)
//! is refused like a malformed one, so two requests without a key are never taken for a retry.

use crate::errors::FieldError;

pub const KEY_REQUIRED: &str =
    "An Idempotency-Key header (1 to 255 visible characters) is required.";

/// The key, checked; a field error named `idempotency_key` otherwise.
pub fn parse_key(key: &str) -> Result<&str, FieldError> {
    if !key.is_empty() && key.len() <= 255 && key.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(key)
    } else {
        Err(FieldError::new("idempotency_key", KEY_REQUIRED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_one_to_255_visible_characters() {
        assert_eq!(parse_key("4f1c-retry_01").ok(), Some("4f1c-retry_01"));
        assert!(parse_key(&"k".repeat(255)).is_ok());
        for bad in ["", " ", "has space", "tab\tkey", "é-key", &"k".repeat(256)] {
            assert!(parse_key(bad).is_err(), "{bad:?}");
        }
    }
}
