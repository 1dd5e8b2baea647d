//! Validated values of the evidence domain (spec §5 "File name").

use evidentia_common::errors::FieldError;

/// A file or folder name: 2 to 50 characters of letters, digits, space and , - _ ` | . ' ".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
        let value = value.trim();
        if !value.chars().all(|c| {
            c.is_alphanumeric() || matches!(c, ' ' | ',' | '-' | '_' | '`' | '|' | '.' | '\'' | '"')
        }) {
            return Err(FieldError::new(field, "Special characters can not be used"));
        }
        let len = value.chars().count();
        if len < 2 {
            return Err(FieldError::new(field, "Must be 2 characters or more"));
        }
        if len > 50 {
            return Err(FieldError::new(field, "Must be 50 characters or less"));
        }
        Ok(Self(value.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What kind of medium an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Image,
    Video,
    Audio,
}

impl MediaType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Video => "video",
            Self::Audio => "audio",
        }
    }

    pub fn from_db(value: &str) -> Option<Self> {
        match value {
            "image" => Some(Self::Image),
            "video" => Some(Self::Video),
            "audio" => Some(Self::Audio),
            _ => None,
        }
    }

    /// The MIME type must be of this kind (`image/jpeg` for an image, ...).
    pub fn accepts(self, mime: &str) -> bool {
        mime.split('/').next() == Some(self.as_str())
            && mime.len() <= 100
            && !mime.contains(['\r', '\n'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(value: &str) -> String {
        Name::parse("name", value).expect_err("rejected").message
    }

    #[test]
    fn file_names_follow_spec_section_5() {
        assert_eq!(message("a"), "Must be 2 characters or more");
        assert_eq!(message("  "), "Must be 2 characters or more");
        assert_eq!(message(&"a".repeat(51)), "Must be 50 characters or less");
        assert_eq!(message("bad/name"), "Special characters can not be used");
        assert_eq!(message("no#hash"), "Special characters can not be used");
        assert!(Name::parse("name", "Car, front-left_1 `|.'\"").is_ok());
        assert!(Name::parse("name", "Ünïcode 12").is_ok());
    }

    #[test]
    fn media_types_take_their_own_mime_types() {
        assert!(MediaType::Image.accepts("image/jpeg"));
        assert!(MediaType::Video.accepts("video/webm"));
        assert!(!MediaType::Audio.accepts("video/webm"));
        assert!(!MediaType::Image.accepts("image/png\r\nx: y"));
    }
}
