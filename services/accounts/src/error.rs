//! Every way an accounts operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, rate_limited, with_reason};
use evidentia_common::ratelimit;
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
    RateLimited { retry_after_secs: u64 },
    #[error("too many contact messages")]
    ContactRateLimited { retry_after_secs: u64 },
    #[error("wrong credentials")]
    WrongCredentials,
    #[error("refresh token invalid")]
    RefreshInvalid,
    #[error("no such user")]
    UserNotFound,
    #[error("the password token is missing, used or expired")]
    PasswordTokenInvalid,
    #[error("the recovery verification is missing, used or expired")]
    RecoveryInvalid,
    #[error("the account is deleted")]
    AccountDeleted {
        recoverable_until: chrono::DateTime<chrono::Utc>,
    },
    #[error("the account's grace period is over")]
    NotRecoverable,
    #[error("the account is not deleted")]
    NotDeleted,
    #[error("the caller's account is deleted")]
    Inactive,
    #[error("not allowed")]
    Forbidden,
    #[error("not a member of an organization")]
    NoOrganization,
    #[error("{0}")]
    NotFound(&'static str),
    #[error("the invite is used, revoked or expired")]
    InviteExpired,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AccountsError {
    /// The error of a refused rate-limit verdict; `Ok` when allowed.
    pub fn limited(verdict: ratelimit::Verdict) -> Result<(), Self> {
        match verdict {
            ratelimit::Verdict::Allowed => Ok(()),
            ratelimit::Verdict::Refused { retry_after_secs } => {
                Err(Self::RateLimited { retry_after_secs })
            }
        }
    }

    pub fn field(field: &str, message: &str) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

evidentia_common::internal_errors!(AccountsError: sqlx::Error, redis::RedisError);

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
            AccountsError::ContactRateLimited { retry_after_secs } => rate_limited(
                "rate_limited",
                "Too many messages. Please try again later.",
                retry_after_secs,
            ),
            AccountsError::RateLimited { retry_after_secs } => rate_limited(
                "rate_limited",
                "Too many attempts. Please try again later.",
                retry_after_secs,
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
            AccountsError::PasswordTokenInvalid => invalid_fields(&[FieldError::new(
                "password_token",
                "Please confirm your password again.",
            )]),
            AccountsError::RecoveryInvalid => invalid_fields(&[FieldError::new(
                "verification_token",
                "Please request a new code.",
            )]),
            AccountsError::AccountDeleted { recoverable_until } => with_reason(
                Code::PermissionDenied,
                "account_deleted",
                &format!(
                    "This account was deleted. You can recover it until {}.",
                    recoverable_until.format("%b %-d, %Y")
                ),
            ),
            AccountsError::NotRecoverable => with_reason(
                Code::FailedPrecondition,
                "not_recoverable",
                "This account can no longer be recovered.",
            ),
            AccountsError::NotDeleted => with_reason(
                Code::FailedPrecondition,
                "not_deleted",
                "This account is not deleted.",
            ),
            AccountsError::Inactive => {
                with_reason(Code::Unauthenticated, "token_not_valid", "User is inactive")
            }
            AccountsError::Forbidden => with_reason(
                Code::PermissionDenied,
                "permission_denied",
                "You do not have permission to do this.",
            ),
            AccountsError::NoOrganization => {
                Status::not_found("You are not a member of an organization.")
            }
            AccountsError::NotFound(message) => Status::not_found(message),
            AccountsError::InviteExpired => with_reason(
                Code::FailedPrecondition,
                "invite_expired",
                "This invite has expired. Please ask for a new one.",
            ),
            AccountsError::Internal(err) => internal(&err),
        }
    }
}
