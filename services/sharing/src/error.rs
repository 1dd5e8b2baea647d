//! Every way a sharing operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, rate_limited, with_reason};
use tonic::{Code, Status};

/// Spec §4, §8: an expired folder cannot be shared.
pub const EXPIRED_MESSAGE: &str = "Please extend your Storage Date for this file.";

#[derive(Debug, thiserror::Error)]
pub enum SharingError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    /// Missing, another user's, or another share's: the same answer, so ids cannot be probed.
    #[error("not found")]
    NotFound,
    /// Verification found no copy for a number or a file; the message says which.
    #[error("not issued")]
    NotIssued(&'static str),
    /// The link in a recipient's message names no share that is still on.
    #[error("link no longer valid")]
    LinkInvalid,
    /// A contribution link that can take no more files.
    #[error("contribution link closed")]
    LinkClosed(LinkClosed),
    /// An access token that expired, or whose share was revoked.
    #[error("access ended")]
    AccessEnded,
    /// The share was revoked: its conversation can be read, not written to.
    #[error("chat closed")]
    ChatClosed,
    /// A futuregram's view link that has expired: a fresh one can be sent to the recipient.
    #[error("link expired")]
    LinkExpired,
    /// A futuregram view link that still works asks for no fresh one.
    #[error("link still valid")]
    LinkStillValid,
    /// What was asked does not fit the futuregram's state; the message says why.
    #[error("futuregram: {0}")]
    Futuregram(String),
    /// The folder's storage date has passed.
    #[error("storage expired")]
    Expired,
    /// The code expired, was used, or ran out of tries.
    #[error("code expired")]
    CodeExpired,
    #[error("rate limited")]
    RateLimited {
        message: &'static str,
        retry_after_secs: u64,
    },
    /// The idempotency key was used before with another request.
    #[error("idempotency key reused")]
    KeyReused,
    /// Another service refused; its status (a declined card, say) goes to the client as it is.
    #[error("upstream: {0}")]
    Upstream(Status),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// Why a contribution link takes nothing more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkClosed {
    Expired,
    Revoked,
    UsedUp,
}

impl LinkClosed {
    /// The link's state as the API names it.
    pub fn state(self) -> &'static str {
        match self {
            Self::Expired => "expired",
            Self::Revoked => "revoked",
            Self::UsedUp => "used_up",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Self::Expired => "This link has expired.",
            Self::Revoked => "This link was revoked.",
            Self::UsedUp => "This link has reached its number of submissions.",
        }
    }
}

impl SharingError {
    pub fn invalid(field: &str, message: &str) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

impl From<FieldError> for SharingError {
    fn from(err: FieldError) -> Self {
        Self::Invalid(vec![err])
    }
}

evidentia_common::internal_errors!(SharingError: sqlx::Error, redis::RedisError, chrono::OutOfRangeError);

impl From<SharingError> for Status {
    fn from(err: SharingError) -> Self {
        match err {
            SharingError::Invalid(errors) => invalid_fields(&errors),
            SharingError::NotFound => Status::not_found("Not found."),
            SharingError::NotIssued(message) => with_reason(Code::NotFound, "not_found", message),
            SharingError::LinkInvalid => with_reason(
                Code::NotFound,
                "link_invalid",
                "This link is no longer valid.",
            ),
            SharingError::LinkClosed(closed) => with_reason(
                Code::FailedPrecondition,
                &format!("link_{}", closed.state()),
                closed.message(),
            ),
            SharingError::AccessEnded => with_reason(
                Code::Unauthenticated,
                "folder_token_invalid",
                "Your access has ended. Open the link from your message again.",
            ),
            SharingError::ChatClosed => with_reason(
                Code::FailedPrecondition,
                "chat_closed",
                "This share was revoked. Its conversation can be read but not added to.",
            ),
            SharingError::LinkExpired => with_reason(
                Code::FailedPrecondition,
                "link_expired",
                "This link has expired. We can send a new one to your address.",
            ),
            SharingError::LinkStillValid => with_reason(
                Code::FailedPrecondition,
                "link_valid",
                "This link still works. Open it to see the files.",
            ),
            SharingError::Futuregram(message) => {
                with_reason(Code::FailedPrecondition, "futuregram_state", &message)
            }
            SharingError::Expired => {
                with_reason(Code::FailedPrecondition, "storage_expired", EXPIRED_MESSAGE)
            }
            SharingError::CodeExpired => with_reason(
                Code::FailedPrecondition,
                "code_expired",
                "This code has expired. Send a new one.",
            ),
            SharingError::RateLimited {
                message,
                retry_after_secs,
            } => rate_limited("rate_limited", message, retry_after_secs),
            SharingError::KeyReused => with_reason(
                Code::AlreadyExists,
                "idempotency_key_reused",
                "This Idempotency-Key was used with a different request.",
            ),
            SharingError::Upstream(status) => status,
            SharingError::Internal(err) => internal(&err),
        }
    }
}
