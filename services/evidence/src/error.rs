//! Every way an evidence operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, with_reason};
use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum EvidenceError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    /// Missing, or another user's: the same answer, so ids cannot be probed.
    #[error("not found")]
    NotFound,
    #[error("the folder's storage date has passed")]
    Expired,
    /// A retake of a file whose folder has expired: not allowed until the date is extended.
    #[error("the folder's storage date has passed; no retake")]
    RetakeExpired,
    #[error("the upload is not in a state that allows this")]
    WrongState(&'static str),
    /// Kept for a futuregram until it is released.
    #[error("held")]
    Held,
    /// The caller's organization role does not allow this change.
    #[error("forbidden")]
    Forbidden,
    /// An anonymous contribution's upload could not be finished: the file is marked rejected.
    #[error("contribution rejected: {0}")]
    ContributionRejected(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

evidentia_common::internal_errors!(EvidenceError: sqlx::Error);

pub const EXPIRED_MESSAGE: &str = "Please extend your Storage Date for this file.";

/// Sharing holds a share's files until its copies are made (moments), a futuregram's until its
/// release.
pub const HELD_MESSAGE: &str = "This file is being shared. It can be changed once its copies are made (for a futuregram, once it is released).";

pub const FORBIDDEN_MESSAGE: &str = "Only the organization's owner and admins can do this.";

impl From<EvidenceError> for Status {
    fn from(err: EvidenceError) -> Self {
        match err {
            EvidenceError::Invalid(errors) => invalid_fields(&errors),
            EvidenceError::NotFound => Status::not_found("Not found."),
            EvidenceError::Expired => {
                with_reason(Code::FailedPrecondition, "storage_expired", EXPIRED_MESSAGE)
            }
            EvidenceError::RetakeExpired => {
                with_reason(Code::PermissionDenied, "storage_expired", EXPIRED_MESSAGE)
            }
            EvidenceError::WrongState(message) => {
                with_reason(Code::FailedPrecondition, "wrong_state", message)
            }
            EvidenceError::Held => with_reason(Code::FailedPrecondition, "held", HELD_MESSAGE),
            EvidenceError::Forbidden => {
                with_reason(Code::PermissionDenied, "forbidden", FORBIDDEN_MESSAGE)
            }
            EvidenceError::ContributionRejected(reason) => {
                with_reason(Code::FailedPrecondition, "rejected", &reason)
            }
            EvidenceError::Internal(err) => internal(&err),
        }
    }
}
