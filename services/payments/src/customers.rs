//! The user's Stripe customer and the payments part of the profile.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{error::PaymentsError, stripe::Stripe};

/// Returns the user's Stripe customer id, creating the customer when there is none yet. The
/// customer row is locked while Stripe is called, so concurrent callers create one customer.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn ensure(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    email: &str,
    name: &str,
) -> Result<String, PaymentsError> {
    sqlx::query(
        "INSERT INTO customers (user_id, email) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(user_id)
    .bind(email)
    .execute(&mut *conn)
    .await?;
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT stripe_customer_id FROM customers WHERE user_id = $1 FOR UPDATE",
    )
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let id = stripe.create_customer(user_id, email, name).await?;
    sqlx::query(
        "UPDATE customers SET stripe_customer_id = $2, updated_at = now() WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(&id)
    .execute(&mut *conn)
    .await?;
    tracing::info!(stripe.customer = %id, "Stripe customer created");
    Ok(id)
}

/// The payments part of `accounts/me/` (spec §3 "User details").
#[derive(Debug, Default, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaymentProfile {
    pub stripe_customer_id: Option<String>,
    pub default_payment_method: Option<String>,
    pub auto_topping_up_amount: i64,
    pub credit_card_wallet_balance: i64,
    pub one_time_benefit_applied: bool,
}

pub async fn profile(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<PaymentProfile, PaymentsError> {
    let found: Option<PaymentProfile> = sqlx::query_as(
        "SELECT c.stripe_customer_id, c.default_payment_method, \
                COALESCE(w.auto_topping_up_amount_cents, 0) AS auto_topping_up_amount, \
                COALESCE(w.balance_cents, 0) AS credit_card_wallet_balance, \
                c.one_time_benefit_applied \
         FROM customers c LEFT JOIN wallets w ON w.user_id = c.user_id WHERE c.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    Ok(found.unwrap_or_default())
}

/// Add-card step 1: the name on the user's Stripe customer (and ours), making the customer first
/// when it does not exist yet.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn update_name(
    pool: &sqlx::PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    email: &str,
    first_name: &str,
    last_name: &str,
) -> Result<(), PaymentsError> {
    let name = format!("{first_name} {last_name}");
    let mut tx = pool.begin().await?;
    let customer = ensure(&mut tx, stripe, user_id, email, &name).await?;
    sqlx::query(
        "UPDATE customers SET first_name = $2, last_name = $3, updated_at = now() WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(first_name)
    .bind(last_name)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    stripe.update_customer_name(&customer, &name).await?;
    Ok(())
}
