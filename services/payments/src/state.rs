//! What every call of the payments service can reach.

use std::sync::Arc;

use secrecy::SecretString;
use sqlx::PgPool;

use crate::{pricing::Pricing, stripe::Stripe};

#[derive(Clone)]
pub struct PaymentsState {
    pub pool: PgPool,
    pub stripe: Arc<dyn Stripe>,
    pub pricing: Pricing,
    pub webhook_secret: SecretString,
}
