//! Request extractors: JSON bodies whose mistakes are 400s in the API's error shape, and the
//! caller (client address, user agent, request id) passed on to services.

use axum::{
    extract::{FromRequest, FromRequestParts, Request, rejection::JsonRejection},
    http::request::Parts,
};
use evidentia_common::grpc::Caller;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body; a malformed one is a 400 naming the problem, never a 500.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
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

/// The `Idempotency-Key` header of a money-moving call, passed on as it came (empty when absent:
/// the service that moves the money says it is required, in the API's error shape).
#[derive(Debug, Clone, Default)]
pub struct IdempotencyKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(
            parts
                .headers
                .get("idempotency-key")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .trim()
                .to_owned(),
        ))
    }
}
