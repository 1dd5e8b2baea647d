//! The one error shape of the whole API, and the one mapping from gRPC statuses to HTTP.
//!
//! Every error answers `{"errors": [{"message", "code", "field"?}], "request_id"}`; the web client
//! shows the first item's message (spec §8 "Promo code rejected").

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use tonic::Code;
use tonic_types::StatusExt;
use utoipa::ToSchema;

/// One problem with a request.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct ErrorItem {
    /// What the user sees.
    pub message: String,
    /// Machine-readable: `invalid`, `token_not_valid`, `not_found`, `rate_limited`, `server_error`, ...
    pub code: String,
    /// The request field the error is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub errors: Vec<ErrorItem>,
    pub request_id: String,
}

/// An error on its way to the client. The request id is filled in by the response layer.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub errors: Vec<ErrorItem>,
    /// How long to wait before trying again (a 429's `Retry-After`).
    pub retry_after_secs: Option<u64>,
}

/// `Retry-After` of a 429 whose service did not say how long to wait.
const DEFAULT_RETRY_AFTER_SECS: u64 = 60;

pub const SERVER_ERROR: &str = "An error occurred. Please try again later.";

impl ApiError {
    pub fn new(status: StatusCode, code: &str, message: &str) -> Self {
        Self {
            status,
            errors: vec![ErrorItem {
                message: message.to_owned(),
                code: code.to_owned(),
                field: None,
            }],
            retry_after_secs: None,
        }
    }

    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "token_not_valid",
            "Your session has ended. Please log in again.",
        )
    }

    pub fn field(field: &str, message: &str) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            errors: vec![ErrorItem {
                message: message.to_owned(),
                code: "invalid".to_owned(),
                field: Some(field.to_owned()),
            }],
            retry_after_secs: None,
        }
    }

    pub fn bad_request(message: &str) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid", message)
    }

    /// A dependency the gateway needs for this request (Redis, a service) is unreachable.
    pub fn unavailable(error: &dyn std::fmt::Display) -> Self {
        tracing::warn!(error = %error, "dependency unavailable");
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "service_unavailable",
            SERVER_ERROR,
        )
    }

    pub fn internal(error: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %error, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            SERVER_ERROR,
        )
    }
}

/// The one place where gRPC codes become HTTP statuses. Field errors come from `BadRequest`
/// details; a machine-readable reason from `ErrorInfo`.
impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        let details = status.get_error_details();
        let reason = details.error_info().map(|info| info.reason.clone());
        let (http, default_code) = match status.code() {
            Code::InvalidArgument | Code::OutOfRange => (StatusCode::BAD_REQUEST, "invalid"),
            Code::FailedPrecondition => (StatusCode::BAD_REQUEST, "failed_precondition"),
            Code::Unauthenticated => (StatusCode::UNAUTHORIZED, "token_not_valid"),
            Code::PermissionDenied => (StatusCode::FORBIDDEN, "permission_denied"),
            Code::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            Code::AlreadyExists | Code::Aborted => (StatusCode::CONFLICT, "conflict"),
            Code::ResourceExhausted => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => {
                tracing::warn!(code = ?status.code(), message = status.message(), "service unavailable");
                return Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "service_unavailable",
                    SERVER_ERROR,
                );
            }
            Code::Ok | Code::Unknown | Code::Internal | Code::Unimplemented | Code::DataLoss => {
                return Self::internal(&format!("{:?}: {}", status.code(), status.message()));
            }
        };
        // A declined card is Payment Required, whatever operation needed the charge.
        let http = if reason.as_deref() == Some("card_declined") {
            StatusCode::PAYMENT_REQUIRED
        } else {
            http
        };
        let code = reason.unwrap_or_else(|| default_code.to_owned());
        let violations = details
            .bad_request()
            .map(|br| br.field_violations.clone())
            .unwrap_or_default();
        let errors = if violations.is_empty() {
            vec![ErrorItem {
                message: status.message().to_owned(),
                code,
                field: None,
            }]
        } else {
            violations
                .into_iter()
                .map(|v| ErrorItem {
                    message: v.description,
                    code: code.clone(),
                    field: Some(v.field),
                })
                .collect()
        };
        let retry_after_secs = details
            .retry_info()
            .and_then(|info| info.retry_delay)
            .map(|delay| delay.as_secs().max(1));
        Self {
            status: http,
            errors,
            retry_after_secs,
        }
    }
}

/// Carried in the response extensions so the request-id layer can finish the body.
#[derive(Debug, Clone)]
pub struct PendingError(pub Vec<ErrorItem>);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(ErrorBody {
                errors: self.errors.clone(),
                request_id: String::new(),
            }),
        )
            .into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            let wait = self.retry_after_secs.unwrap_or(DEFAULT_RETRY_AFTER_SECS);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(wait));
        }
        response.extensions_mut().insert(PendingError(self.errors));
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
