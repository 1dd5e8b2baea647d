//! Request extractors: JSON bodies whose mistakes are 400s in the API's error shape, and the
//! caller (client address, user agent, request id) passed on to services.

use axum::{
    body::Bytes,
    extract::{FromRequest, FromRequestParts, Request},
    http::{HeaderMap, StatusCode, header, request::Parts},
    response::IntoResponse,
};
use evidentia_common::{grpc::Caller, text};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body; a malformed one is a 400 naming the problem, never a 500. A string holding a
/// control character or a bidirectional override is refused on its field before any service
/// sees it (a NUL byte cannot be stored, and overrides disguise what a name says).
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(ApiError::bad_request(
                "Expected a JSON body (Content-Type: application/json).",
            ));
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|rejection| rejection.into_response())
            .map_err(|response| match response.status() {
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    "The request body is too large.",
                ),
                _ => ApiError::bad_request("The request body could not be read."),
            })?;
        let value = parse::<T>(&bytes)?;
        // The body parsed as `T`, so it is valid JSON: walk its strings.
        if let Ok(tree) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && let Some(path) = text::first_refused_path(&tree)
        {
            return Err(ApiError::field(&path, text::REFUSED_CHARACTERS));
        }
        Ok(Self(value))
    }
}

/// How a body type's own `Deserialize` refuses a value with a message of ours
/// (`serde(try_from)` answering `refusal("...")`): the message is shown as it is, on the value.
const REFUSAL: &str = "refused: ";

/// The error text that makes [`ApiJson`] answer `message` on the value being read.
pub fn refusal(message: &str) -> String {
    format!("{REFUSAL}{message}")
}

const REQUIRED: &str = "This field is required";
const WHOLE_NUMBER: &str = "Enter a whole number.";
const OUT_OF_RANGE: &str = "This number is out of range.";
const WRONG_KIND: &str = "This value is not of the right kind.";
const GIVEN_TWICE: &str = "This field is given more than once.";

/// The body as `T`. Valid JSON of the wrong shape is a 400 on the field at fault, in words a
/// person can act on: the parser's own text names Rust types and columns of the body.
pub(crate) fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let not_json = || ApiError::bad_request("The request body is not valid JSON.");
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize::<_, T>(&mut json).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if !inner.is_data() {
            // The parser reports an enum given a number, a boolean or a list as a syntax error;
            // in a body that is valid JSON it is the value at `path` that is of the wrong kind.
            if path != "." && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() {
                return ApiError::field(&path, WRONG_KIND);
            }
            return not_json();
        }
        let (field, message) = data_error(&path, &inner.to_string());
        match field {
            Some(field) => ApiError::field(&field, &message),
            None => ApiError::bad_request(&message),
        }
    })?;
    json.end().map_err(|_| not_json())?;
    Ok(value)
}

/// The field (`recipients[0].email`; none for the body itself) and the message for a parser's
/// data error `text` at `path` (the path of the value that failed, or of the object missing a
/// field).
fn data_error(path: &str, text: &str) -> (Option<String>, String) {
    let at = |name: &str| -> Option<String> {
        match (path, name) {
            (".", "") => None,
            (".", name) => Some(name.to_owned()),
            (path, "") => Some(path.to_owned()),
            (path, name) => Some(format!("{path}.{name}")),
        }
    };
    let quoted = |prefix: &str| {
        text.strip_prefix(prefix)
            .and_then(|rest| rest.split('`').next())
            .map(str::to_owned)
    };
    if let Some(name) = quoted("missing field `") {
        return (at(&name), REQUIRED.to_owned());
    }
    if let Some(name) = quoted("duplicate field `") {
        return (at(&name), GIVEN_TWICE.to_owned());
    }
    if text.starts_with("unknown variant `") {
        let choices: Vec<&str> = text
            .split_once("expected ")
            .map(|(_, expected)| expected.split('`').skip(1).step_by(2).collect())
            .unwrap_or_default();
        let message = if choices.is_empty() {
            WRONG_KIND.to_owned()
        } else {
            format!("Choose one of: {}.", choices.join(", "))
        };
        return (at(""), message);
    }
    if let Some(message) = text.strip_prefix(REFUSAL) {
        let message = message.split(" at line ").next().unwrap_or(message);
        return (at(""), message.to_owned());
    }
    if path == "." {
        return (None, "The request body must be a JSON object.".to_owned());
    }
    let expected = text
        .split_once(", expected ")
        .map(|(_, e)| e.split(" at line ").next().unwrap_or(e))
        .unwrap_or("");
    let integer = [
        "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "isize",
    ]
    .iter()
    .any(|t| expected == *t || expected.ends_with(&format!(" {t}")));
    let message = if integer && text.starts_with("invalid value: integer") {
        OUT_OF_RANGE
    } else if integer {
        WHOLE_NUMBER
    } else if expected.contains("string") {
        "Enter text."
    } else if expected.contains("boolean") {
        "Enter true or false."
    } else if expected.contains("sequence") {
        "Enter a list."
    } else if expected.contains("f64") || expected.contains("f32") {
        "Enter a number."
    } else {
        WRONG_KIND
    };
    (at(""), message.to_owned())
}

/// `application/json` or any `application/...+json` type, as axum's own `Json` accepts.
fn is_json(headers: &HeaderMap) -> bool {
    let Some(essence) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
    else {
        return false;
    };
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The anonymous caller: where the request came from.
#[derive(Debug, Clone)]
pub struct Client(pub Caller);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(caller_from(parts)))
    }
}

pub(crate) fn caller_from(parts: &Parts) -> Caller {
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    // Envoy, our edge, records the address it saw; behind it the first forwarded hop.
    let client_ip = header("x-envoy-external-address").or_else(|| {
        header("x-forwarded-for").and_then(|v| v.split(',').next().map(|s| s.trim().to_owned()))
    });
    Caller {
        user_id: None,
        client_ip,
        user_agent: header("user-agent"),
        request_id: header("x-request-id"),
    }
}

/// A header's text, trimmed; empty when absent or not text.
pub fn header_text(parts: &Parts, name: &str) -> String {
    parts
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// An extractor of one header passed on as it came ([`header_text`]): never refused here, as
/// the service it goes to says in the API's error shape when it is missing or wrong.
macro_rules! header_extractor {
    ($(#[$attr:meta])* $name:ident = $header:literal) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Default)]
        pub struct $name(pub String);

        impl<S: Send + Sync> axum::extract::FromRequestParts<S> for $name {
            type Rejection = std::convert::Infallible;

            async fn from_request_parts(
                parts: &mut axum::http::request::Parts,
                _state: &S,
            ) -> Result<Self, Self::Rejection> {
                Ok(Self($crate::extract::header_text(parts, $header)))
            }
        }
    };
}
pub(crate) use header_extractor;

header_extractor! {
    /// The `Idempotency-Key` header of a money-moving call (the service that moves the money
    /// says it is required).
    IdempotencyKey = "idempotency-key"
}

/// A query string; a parameter that is missing or of the wrong kind is a 400 on that parameter
/// in the API's error shape, in the words a JSON body's field gets, never the parser's text.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parse_query(parts.uri.query().unwrap_or_default()).map(Self)
    }
}

/// The query string as `T`, or the field error of its first wrong parameter.
pub(crate) fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let parsed = form_urlencoded::parse(query.as_bytes());
    serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(parsed)).map_err(|err| {
        let path = err.path().to_string();
        let (field, message) = data_error(&path, &err.into_inner().to_string());
        match field {
            Some(field) => ApiError::field(&field, &message),
            None => ApiError::bad_request(&format!("Invalid query string: {message}")),
        }
    })
}

/// Path parameters; one that is not valid percent-encoded UTF-8 is a 400 in the API's error shape.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Self(value)),
            Err(rejection) => Err(ApiError::bad_request(&format!(
                "Invalid path: {}",
                rejection.body_text()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Recipient {
        email: String,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum CopyType {
        Authenticated,
        Unauthenticated,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        name: String,
        months: i32,
        copy_type: Option<CopyType>,
        #[serde(default)]
        recipients: Vec<Recipient>,
        #[serde(default)]
        urgent: bool,
    }

    /// The one error a body gets: (field, message).
    fn refused(body: &str) -> (Option<String>, String) {
        let err = parse::<Body>(body.as_bytes()).unwrap_err();
        let item = &err.errors[0];
        (item.field.clone(), item.message.clone())
    }

    fn on(field: &str, message: &str) -> (Option<String>, String) {
        (Some(field.to_owned()), message.to_owned())
    }

    #[test]
    fn a_wrong_query_parameter_is_refused_on_its_name_in_plain_words() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Listing {
            active: bool,
            archived: Option<bool>,
        }
        let refused = |query: &str| {
            let err = parse_query::<Listing>(query).unwrap_err();
            (err.errors[0].field.clone(), err.errors[0].message.clone())
        };
        assert!(parse_query::<Listing>("active=true&archived=false").is_ok());
        assert_eq!(refused(""), on("active", REQUIRED));
        assert_eq!(refused("archived=true"), on("active", REQUIRED));
        assert_eq!(
            refused("active=true&archived=maybe"),
            on("archived", WRONG_KIND)
        );
        assert_eq!(refused("active=yes"), on("active", WRONG_KIND));
    }

    #[test]
    fn a_body_of_the_wrong_shape_is_refused_on_its_field_in_plain_words() {
        assert!(parse::<Body>(br#"{"name": "a", "months": 3}"#).is_ok());
        assert_eq!(refused(r#"{"months": 3}"#), on("name", REQUIRED));
        assert_eq!(
            refused(r#"{"name": "a", "months": 3, "recipients": [{}]}"#),
            on("recipients[0].email", REQUIRED)
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": 99999999999}"#),
            on("months", OUT_OF_RANGE)
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": "three"}"#),
            on("months", WHOLE_NUMBER)
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": 1.5}"#),
            on("months", WHOLE_NUMBER)
        );
        assert_eq!(
            refused(r#"{"name": 7, "months": 1}"#),
            on("name", "Enter text.")
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": 1, "urgent": "yes"}"#),
            on("urgent", "Enter true or false.")
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": 1, "recipients": "x"}"#),
            on("recipients", "Enter a list.")
        );
        assert_eq!(
            refused(r#"{"name": "a", "months": 1, "copy_type": "both"}"#),
            on(
                "copy_type",
                "Choose one of: authenticated, unauthenticated."
            )
        );
        assert_eq!(
            refused(r#"{"name": "a", "name": "b", "months": 1}"#),
            on("name", GIVEN_TWICE)
        );
        for wrong in ["5", "true", "[\"authenticated\"]"] {
            assert_eq!(
                refused(&format!(
                    r#"{{"name": "a", "months": 1, "copy_type": {wrong}}}"#
                )),
                on("copy_type", WRONG_KIND),
                "{wrong}"
            );
        }
        assert_eq!(
            refused(r#""a string""#),
            (None, "The request body must be a JSON object.".to_owned())
        );
        #[derive(Debug, Deserialize)]
        #[serde(try_from = "String")]
        struct Even(#[allow(dead_code)] String);
        impl TryFrom<String> for Even {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                if s.len().is_multiple_of(2) {
                    Ok(Self(s))
                } else {
                    Err(refusal("Give an even number of letters."))
                }
            }
        }
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Words {
            words: Vec<Even>,
        }
        let err = parse::<Words>(br#"{"words": ["ab", "abc"]}"#).unwrap_err();
        assert_eq!(
            (err.errors[0].field.clone(), err.errors[0].message.clone()),
            on("words[1]", "Give an even number of letters.")
        );
        for broken in [r#"{"name": "a""#, r#"{"name": "a", "months": 1} trailing"#] {
            assert_eq!(
                refused(broken),
                (None, "The request body is not valid JSON.".to_owned()),
                "{broken}"
            );
        }
    }
}
