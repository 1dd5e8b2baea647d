//! Why an account is deleted: the reasons offered for a soft delete and the details they need.

use evidentia_common::errors::FieldError;

/// The reasons offered for a soft delete (`delete-reasons/?delete_type=soft_delete`).
pub const REASONS: [(&str, &str); 6] = [
    ("no_longer_needed", "I no longer need Evidentia"),
    ("another_account", "I have another account"),
    ("too_expensive", "It is too expensive"),
    ("privacy", "I am worried about my privacy"),
    ("hard_to_use", "The app is hard to use"),
    ("other", "Other"),
];

pub const SOFT_DELETE: &str = "soft_delete";

pub fn reasons(delete_type: &str) -> Result<&'static [(&'static str, &'static str)], FieldError> {
    match delete_type {
        "" | SOFT_DELETE => Ok(&REASONS),
        _ => Err(FieldError::new("delete_type", "Unknown delete type.")),
    }
}

/// A checked reason: a known id, and details (3 to 500 characters) when it is "other".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteReason {
    pub id: String,
    pub details: String,
}

impl DeleteReason {
    pub fn parse(reason_id: &str, details: &str) -> Result<Self, FieldError> {
        if reason_id.trim().is_empty() {
            return Err(FieldError::new("reason_id", super::REQUIRED));
        }
        if !REASONS.iter().any(|(id, _)| *id == reason_id) {
            return Err(FieldError::new("reason_id", "Choose one of the reasons."));
        }
        let details = details.trim();
        if reason_id == "other" && details.chars().count() < 3 {
            return Err(FieldError::new("details", "Please tell us why."));
        }
        if details.chars().count() > 500 {
            return Err(FieldError::new("details", "Maximum 500 characters"));
        }
        Ok(Self {
            id: reason_id.to_owned(),
            details: details.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_need_details_only_for_other() {
        assert!(DeleteReason::parse("privacy", "").is_ok());
        assert!(
            matches!(DeleteReason::parse("other", ""), Err(e) if e.message == "Please tell us why.")
        );
        assert!(matches!(DeleteReason::parse("bored", ""), Err(e) if e.field == "reason_id"));
        assert!(reasons("hard_delete").is_err());
    }
}
