//! The user's Stripe customer and the payments part of the profile.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{domain::PaymentProfile, error::PaymentsError, store::customers, stripe::Stripe};

/// Returns the user's Stripe customer id, creating the customer when there is none yet. Call it in
/// a transaction: the user's customer row stays locked while Stripe creates the customer, so
/// concurrent callers make one (the one lock held across a Stripe call that must be: Stripe's
/// idempotency key alone is not relied on, and the local emulator ignores it).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn ensure(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    email: &str,
    name: &str,
) -> Result<String, PaymentsError> {
    customers::insert_if_missing(conn, user_id, email).await?;
    if let Some(id) = customers::lock_stripe_customer(conn, user_id).await? {
        return Ok(id);
    }
    let id = stripe.create_customer(user_id, email, name).await?;
    customers::set_stripe_customer(conn, user_id, &id).await?;
    tracing::info!(stripe.customer = %id, "Stripe customer created");
    Ok(id)
}

/// The user's Stripe customer id, or `NoCustomer` when they have none yet.
pub async fn id_of(conn: &mut PgConnection, user_id: Uuid) -> Result<String, PaymentsError> {
    customers::stripe_customer(conn, user_id)
        .await?
        .ok_or(PaymentsError::NoCustomer)
}

/// The payments part of `accounts/me/` (spec §3 "User details").
pub async fn profile(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<PaymentProfile, PaymentsError> {
    Ok(customers::profile(conn, user_id).await?.unwrap_or_default())
}

/// A billing name (spec §5 "Billing first and last name").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingName {
    pub first: String,
    pub last: String,
}

/// Add-card step 1: the name on the user's Stripe customer (and ours), making the customer first
/// when it does not exist yet. Ours is committed before Stripe is told; a retry tells it again.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn update_name(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    email: &str,
    name: &BillingName,
) -> Result<(), PaymentsError> {
    let full = format!("{} {}", name.first, name.last);
    let mut tx = pool.begin().await?;
    let customer = ensure(&mut tx, stripe, user_id, email, &full).await?;
    customers::set_name(&mut tx, user_id, &name.first, &name.last).await?;
    tx.commit().await?;
    stripe.update_customer_name(&customer, &full).await?;
    Ok(())
}
