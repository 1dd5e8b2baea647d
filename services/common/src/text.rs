//! Characters no text we accept may hold: control characters (a NUL byte cannot even be stored
//! in PostgreSQL) and the bidirectional overrides that make a name read differently from what
//! it is ("Trojan Source"). The gateway applies it to every JSON string; single-line fields add
//! line breaks to what they refuse.

/// The field error for text holding a refused character.
pub const REFUSED_CHARACTERS: &str = "Contains characters that are not allowed.";

/// True for a character no stored text may hold: C0 and C1 controls other than tab and line
/// breaks, and the explicit bidirectional embeddings, overrides and isolates (U+202A..U+202E,
/// U+2066..U+2069). The marks U+200E/U+200F stay allowed: right-to-left text needs them.
pub fn is_refused(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// True when `text` holds a character [`is_refused`] refuses.
pub fn has_refused(text: &str) -> bool {
    text.chars().any(is_refused)
}

/// True when a single-line field (a name, an address line) holds a refused character or a line
/// break or tab.
pub fn has_refused_single_line(text: &str) -> bool {
    text.chars()
        .any(|c| is_refused(c) || matches!(c, '\t' | '\n' | '\r'))
}

/// The path of the first string in `value` holding a refused character, as the API names fields
/// (`name`, `address.street`, `items[2].name`); `None` when every string is clean. Object keys
/// are checked too: a key is part of what a handler may echo or store.
pub fn first_refused_path(value: &serde_json::Value) -> Option<String> {
    fn walk(value: &serde_json::Value, path: &mut String) -> bool {
        match value {
            serde_json::Value::String(s) => has_refused(s),
            serde_json::Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(item, path);
                if !found {
                    path.truncate(len);
                }
                found
            }),
            serde_json::Value::Object(map) => map.iter().any(|(key, item)| {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                let found = has_refused(key) || walk(item, path);
                if !found {
                    path.truncate(len);
                }
                found
            }),
            _ => false,
        }
    }
    let mut path = String::new();
    walk(value, &mut path).then_some(path)
}

/// An e-mail address as shown to someone who must not learn it: `a***@example.com`.
pub fn mask_email(address: &str) -> String {
    match address.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

/// A phone number as shown to someone who must not learn it: `+1 *******100`.
pub fn mask_phone(country_code: &str, national_number: &str) -> String {
    let shown = national_number.len().saturating_sub(3);
    format!(
        "{country_code} {}{}",
        "*".repeat(shown),
        national_number.get(shown..).unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn controls_and_bidi_overrides_are_refused_but_tabs_newlines_and_rtl_marks_pass() {
        for refused in [
            "a\0b",
            "\u{7}",
            "\u{1b}[31m",
            "\u{85}",
            "abc\u{202E}gpj.exe",
            "\u{2066}x",
        ] {
            assert!(has_refused(refused), "{refused:?}");
        }
        for allowed in [
            "Zoë O'Brien",
            "line\nbreak\ttab\r",
            "שלום\u{200F}",
            "東京",
            "🙂",
        ] {
            assert!(!has_refused(allowed), "{allowed:?}");
        }
        assert!(has_refused_single_line("two\nlines"));
        assert!(!has_refused_single_line("one line"));
    }

    #[test]
    fn the_path_names_the_first_offending_field() {
        assert_eq!(first_refused_path(&json!({"name": "ok", "n": 1})), None);
        assert_eq!(
            first_refused_path(&json!({"first_name": "ok", "address": {"street": "a\u{0}"}})),
            Some("address.street".to_owned())
        );
        assert_eq!(
            first_refused_path(&json!({"items": [{"name": "x"}, {"name": "\u{202E}y"}]})),
            Some("items[1].name".to_owned())
        );
        assert_eq!(
            first_refused_path(&json!(["\u{0}"])),
            Some("[0]".to_owned())
        );
    }
}
