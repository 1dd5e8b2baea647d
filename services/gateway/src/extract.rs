//! Request extractors: JSON bodies whose mistakes are 400s in the API's error shape, and the
//! caller (client address, user agent, request id) passed on to services.

use axum::{
    body::Bytes,
    extract::{FromRequest, FromRequestParts, Request, rejection::JsonRejection},
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
        let value = axum::Json::<T>::from_bytes(&bytes).map_err(|r| json_rejection(&r))?;
        // The body parsed as `T`, so it is valid JSON: walk its strings.
        if let Ok(tree) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && let Some(path) = text::first_refused_path(&tree)
        {
            return Err(ApiError::field(&path, text::REFUSED_CHARACTERS));
        }
        Ok(Self(value.0))
    }
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

fn json_rejection(rejection: &JsonRejection) -> ApiError {
    let message = match rejection {
        JsonRejection::MissingJsonContentType(_) => {
            "Expected a JSON body (Content-Type: application/json).".to_owned()
        }
        JsonRejection::JsonSyntaxError(_) => "The request body is not valid JSON.".to_owned(),
        JsonRejection::JsonDataError(err) => format!("Invalid request body: {}", err.body_text()),
        other => other.body_text(),
    };
    ApiError::bad_request(&message)
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

/// A query string; a malformed one (a repeated or unknown-typed parameter) is a 400 in the API's
/// error shape, never axum's plain-text rejection.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Self(value)),
            Err(rejection) => {
                let text = rejection.body_text();
                let reason = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                Err(ApiError::bad_request(&format!(
                    "Invalid query string: {reason}"
                )))
            }
        }
    }
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
