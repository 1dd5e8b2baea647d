//! Building gRPC statuses: field errors travel as `BadRequest` details so the gateway renders
//! them without parsing strings; internal errors are logged once and answered opaquely.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// One rejected field and the message the user sees (spec §5 wording).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// `InvalidArgument` carrying every field error as a `BadRequest` violation.
pub fn invalid_fields(errors: &[FieldError]) -> Status {
    let mut details = ErrorDetails::new();
    for error in errors {
        details.add_bad_request_violation(error.field.clone(), error.message.clone());
    }
    let message = errors
        .first()
        .map_or("Invalid input.", |e| e.message.as_str());
    Status::with_error_details(Code::InvalidArgument, message, details)
}

/// A status with a machine-readable reason (`ErrorInfo.reason`) beside the user's message.
pub fn with_reason(code: Code, reason: &str, message: &str) -> Status {
    let details =
        ErrorDetails::with_error_info(reason, "evidentia", std::collections::HashMap::new());
    Status::with_error_details(code, message, details)
}

/// `ResourceExhausted` with a reason and how long to wait (a `RetryInfo` detail, which the
/// gateway answers as `Retry-After`).
pub fn rate_limited(reason: &str, message: &str, retry_after_secs: u64) -> Status {
    let mut details =
        ErrorDetails::with_error_info(reason, "evidentia", std::collections::HashMap::new());
    details.set_retry_info(Some(std::time::Duration::from_secs(retry_after_secs)));
    Status::with_error_details(Code::ResourceExhausted, message, details)
}

/// Logs an unexpected error once, with its cause chain, and returns an opaque `Internal`.
pub fn internal(error: &anyhow::Error) -> Status {
    tracing::error!(error = ?error, "internal error");
    Status::internal("Internal error.")
}

/// `From` for the failures a service reports as its own `Internal(anyhow::Error)` variant (its
/// database, Redis): `internal_errors!(AccountsError: sqlx::Error, redis::RedisError);`.
#[macro_export]
macro_rules! internal_errors {
    ($error:ty: $($source:ty),+ $(,)?) => {
        $(
            impl From<$source> for $error {
                fn from(err: $source) -> Self {
                    Self::Internal(err.into())
                }
            }
        )+
    };
}
