//! Every way a payments operation can fail, and its one conversion to a gRPC status.

use evidentia_common::errors::{FieldError, internal, invalid_fields, with_reason};
use tonic::{Code, Status};

use crate::stripe::StripeFailure;

/// What a declined card is called when Stripe gives no reason of its own.
pub const CARD_DECLINED: &str = "Your card was declined.";

#[derive(Debug, thiserror::Error)]
pub enum PaymentsError {
    #[error("invalid fields")]
    Invalid(Vec<FieldError>),
    /// Missing, or another user's: the same answer, so ids cannot be probed.
    #[error("not found")]
    NotFound,
    /// The user has no Stripe customer yet (payments/stripe-customer/create/ makes one).
    #[error("no Stripe customer")]
    NoCustomer,
    /// A rule refuses the operation; the message is the user's.
    #[error("refused: {0}")]
    Refused(&'static str),
    /// A debit would take the balance below zero.
    #[error("the wallet balance is too low")]
    InsufficientBalance,
    /// A purchase planned beside others from the same wallet found the balance short: it is
    /// planned again, alone (the pay call does so; this never reaches a client).
    #[error("the wallet balance moved while the purchase was planned")]
    PlanAlone,
    /// A card charge the operation needed was declined.
    #[error("card declined")]
    CardDeclined,
    /// Stripe refused a request about a card (its message is the user's).
    #[error("stripe refused: {0}")]
    Stripe(String),
    /// The idempotency key was used before with another request.
    #[error("idempotency key reused")]
    KeyReused,
    #[error("webhook signature")]
    BadSignature,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl PaymentsError {
    pub fn invalid(field: &str, message: &str) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }
}

impl From<FieldError> for PaymentsError {
    fn from(err: FieldError) -> Self {
        Self::Invalid(vec![err])
    }
}

impl From<crate::pricing::OutOfRange> for PaymentsError {
    fn from(err: crate::pricing::OutOfRange) -> Self {
        Self::Internal(err.into())
    }
}

evidentia_common::internal_errors!(PaymentsError: sqlx::Error);

impl From<StripeFailure> for PaymentsError {
    fn from(err: StripeFailure) -> Self {
        match err {
            StripeFailure::Declined { .. } => Self::CardDeclined,
            StripeFailure::Rejected { message } => Self::Stripe(message),
            StripeFailure::Other(err) => Self::Internal(err),
        }
    }
}

impl From<PaymentsError> for Status {
    fn from(err: PaymentsError) -> Self {
        match err {
            PaymentsError::Invalid(errors) => invalid_fields(&errors),
            PaymentsError::NotFound => Status::not_found("Not found."),
            PaymentsError::NoCustomer => with_reason(
                Code::FailedPrecondition,
                "no_customer",
                "Your payment profile is not ready yet. Please try again.",
            ),
            PaymentsError::Refused(message) => {
                with_reason(Code::FailedPrecondition, "refused", message)
            }
            PaymentsError::InsufficientBalance => with_reason(
                Code::FailedPrecondition,
                "insufficient_balance",
                "Your CreditCard Wallet balance is too low.",
            ),
            PaymentsError::PlanAlone => {
                internal(&anyhow::anyhow!("a purchase was not planned again alone"))
            }
            PaymentsError::CardDeclined => {
                with_reason(Code::FailedPrecondition, "card_declined", CARD_DECLINED)
            }
            PaymentsError::Stripe(message) => {
                with_reason(Code::FailedPrecondition, "card_error", &message)
            }
            PaymentsError::KeyReused => with_reason(
                Code::AlreadyExists,
                "idempotency_key_reused",
                "This Idempotency-Key was used with a different request.",
            ),
            PaymentsError::BadSignature => with_reason(
                Code::PermissionDenied,
                "bad_signature",
                "The webhook signature does not match.",
            ),
            PaymentsError::Internal(err) => internal(&err),
        }
    }
}
