//! Every way an accounts operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, with_reason};
use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum AccountsError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    #[error("confirmation code incorrect")]
    CodeIncorrect,
    #[error("confirmation code expired or missing")]
    CodeExpired,
    #[error("too many attempts at a confirmation code")]
    CodeAttemptsExhausted,
    #[error("the e-mail verification is missing, used or expired")]
    VerificationInvalid,
    #[error("too many requests")]
    RateLimited,
    #[error("too many contact messages")]
    ContactRateLimited,
    #[error("wrong credentials")]
    WrongCredentials,
    #[error("refresh token invalid")]
    RefreshInvalid,
    #[error("no such user")]
    UserNotFound,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AccountsError {
    pub fn field(field: &str, message: &str) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

impl From<sqlx::Error> for AccountsError {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl From<redis::RedisError> for AccountsError {
    fn from(err: redis::RedisError) -> Self {
        Self::Internal(err.into())
    }
}

pub const CODE_FIELD: &str = "confirmation_code";

impl From<AccountsError> for Status {
    fn from(err: AccountsError) -> Self {
        match err {
            AccountsError::Invalid(errors) => invalid_fields(&errors),
            AccountsError::CodeIncorrect => invalid_fields(&[FieldError::new(
                CODE_FIELD,
                "The confirmation code is incorrect.",
            )]),
            AccountsError::CodeExpired => invalid_fields(&[FieldError::new(
                CODE_FIELD,
                "The confirmation code has expired. Please request a new code.",
            )]),
            AccountsError::CodeAttemptsExhausted => invalid_fields(&[FieldError::new(
                CODE_FIELD,
                "Too many attempts. Please request a new code.",
            )]),
            AccountsError::VerificationInvalid => invalid_fields(&[FieldError::new(
                "email",
                "Please confirm your email address again.",
            )]),
            AccountsError::ContactRateLimited => with_reason(
                Code::ResourceExhausted,
                "rate_limited",
                "Too many messages. Please try again later.",
            ),
            AccountsError::RateLimited => with_reason(
                Code::ResourceExhausted,
                "rate_limited",
                "Too many attempts. Please try again later.",
            ),
            AccountsError::WrongCredentials => invalid_fields(&[FieldError::new(
                "password",
                "Wrong Password. Please try again",
            )]),
            AccountsError::RefreshInvalid => with_reason(
                Code::Unauthenticated,
                "token_not_valid",
                "Token is invalid or expired",
            ),
            AccountsError::UserNotFound => Status::not_found("User not found."),
            AccountsError::Internal(err) => internal(&err),
        }
    }
}
