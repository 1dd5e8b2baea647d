//! Every way a referrals operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, rate_limited, with_reason};
use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum ReferralsError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    /// Not the caller's (or gone): another user's invitation answers the same.
    #[error("not found")]
    NotFound,
    /// The request's idempotency key already answered a different request.
    #[error("idempotency key reused")]
    KeyReused,
    #[error("rate limited")]
    RateLimited {
        message: &'static str,
        retry_after_secs: u64,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ReferralsError {
    pub fn invalid(field: &str, message: &str) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

impl From<FieldError> for ReferralsError {
    fn from(err: FieldError) -> Self {
        Self::Invalid(vec![err])
    }
}

evidentia_common::internal_errors!(ReferralsError: sqlx::Error, redis::RedisError);

impl From<ReferralsError> for Status {
    fn from(err: ReferralsError) -> Self {
        match err {
            ReferralsError::Invalid(errors) => invalid_fields(&errors),
            ReferralsError::NotFound => Status::not_found("Not found."),
            ReferralsError::KeyReused => with_reason(
                Code::AlreadyExists,
                "idempotency_key_reused",
                "This Idempotency-Key was used with a different request.",
            ),
            ReferralsError::RateLimited {
                message,
                retry_after_secs,
            } => rate_limited("rate_limited", message, retry_after_secs),
            ReferralsError::Internal(err) => internal(&err),
        }
    }
}
