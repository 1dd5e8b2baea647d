//! Every way a payments operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::internal;
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum PaymentsError {
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for PaymentsError {
    fn from(err: sqlx::Error) -> Self {
        Self::Internal(err.into())
    }
}

impl From<PaymentsError> for Status {
    fn from(err: PaymentsError) -> Self {
        match err {
            PaymentsError::Internal(err) => internal(&err),
        }
    }
}
