//! Every way a referrals operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields};
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum ReferralsError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
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

evidentia_common::internal_errors!(ReferralsError: sqlx::Error);

impl From<ReferralsError> for Status {
    fn from(err: ReferralsError) -> Self {
        match err {
            ReferralsError::Invalid(errors) => invalid_fields(&errors),
            ReferralsError::Internal(err) => internal(&err),
        }
    }
}
