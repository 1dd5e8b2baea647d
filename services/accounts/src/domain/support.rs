//! The contact-us form: a visitor's message to support, checked before it is mailed.

use evidentia_common::errors::FieldError;

use super::Email;

/// A checked message (spec §5: Name 2 to 150, Email, Short text 3 to 30 for the subject).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactMessage {
    pub name: String,
    pub email: Email,
    pub subject: String,
    pub message: String,
}

fn length(field: &str, value: &str, min: usize, max: usize) -> Option<FieldError> {
    let n = value.chars().count();
    let message = if n == 0 {
        super::REQUIRED.to_owned()
    } else if n < min {
        format!("Minimum {min} characters")
    } else if n > max {
        format!("Maximum {max} characters")
    } else {
        return None;
    };
    Some(FieldError::new(field, message))
}

impl ContactMessage {
    pub fn parse(
        name: &str,
        email: &str,
        subject: &str,
        message: &str,
    ) -> Result<Self, Vec<FieldError>> {
        let (name, subject, message) = (name.trim(), subject.trim(), message.trim());
        let mut errors: Vec<FieldError> = Vec::new();
        errors.extend(length("name", name, 2, 150));
        let email = Email::parse("email", email)
            .map_err(|e| errors.push(e))
            .ok();
        errors.extend(length("subject", subject, 3, 30));
        errors.extend(length("message", message, 1, 2000));
        match email {
            Some(email) if errors.is_empty() => Ok(Self {
                name: name.to_owned(),
                email,
                subject: subject.to_owned(),
                message: message.to_owned(),
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_has_its_spec_rule() {
        let errors = ContactMessage::parse("A", "not-an-email", "Hi", "").unwrap_err();
        let got: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("name", "Minimum 2 characters"),
                ("email", "Please enter a valid email address"),
                ("subject", "Minimum 3 characters"),
                ("message", "This field is required"),
            ]
        );
        let long = ContactMessage::parse("Ann", "a@b.co", &"s".repeat(31), &"m".repeat(2001));
        let got: Vec<String> = long.unwrap_err().into_iter().map(|e| e.message).collect();
        assert_eq!(
            got,
            vec!["Maximum 30 characters", "Maximum 2000 characters"]
        );
        assert!(
            ContactMessage::parse("Ann Lee", "ann@example.com", "Upload", "It stopped.").is_ok()
        );
    }
}
