//! `customers`: the user's Stripe customer, billing name, default card and one-time flags.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::PaymentProfile;

#[tracing::instrument(skip_all)]
pub async fn insert_if_missing(
    conn: &mut PgConnection,
    user_id: Uuid,
    email: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO customers (user_id, email) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
        user_id,
        email
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The user's Stripe customer id; `None` when there is no row or no customer yet.
#[tracing::instrument(skip_all)]
pub async fn stripe_customer(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<Option<String>> {
    Ok(sqlx::query_scalar!(
        "SELECT stripe_customer_id FROM customers WHERE user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await?
    .flatten())
}

/// The user's Stripe customer id, with the row locked for the rest of the transaction.
#[tracing::instrument(skip_all)]
pub async fn lock_stripe_customer(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT stripe_customer_id FROM customers WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn set_stripe_customer(
    conn: &mut PgConnection,
    user_id: Uuid,
    customer: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE customers SET stripe_customer_id = $2, updated_at = now() WHERE user_id = $1",
        user_id,
        customer
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What paying needs: the Stripe customer and the default card.
#[derive(Debug, Clone)]
pub struct Billing {
    pub stripe_customer_id: Option<String>,
    pub default_payment_method: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn billing(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Billing>> {
    sqlx::query_as!(
        Billing,
        "SELECT stripe_customer_id, default_payment_method FROM customers WHERE user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// The same, with the row locked for the rest of the transaction (card changes are serialised).
#[tracing::instrument(skip_all)]
pub async fn lock_billing(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Billing>> {
    sqlx::query_as!(
        Billing,
        "SELECT stripe_customer_id, default_payment_method FROM customers WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn set_default_method(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE customers SET default_payment_method = $2, updated_at = now() WHERE user_id = $1",
        user_id,
        payment_method
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn set_name(
    conn: &mut PgConnection,
    user_id: Uuid,
    first_name: &str,
    last_name: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE customers SET first_name = $2, last_name = $3, updated_at = now() WHERE user_id = $1",
        user_id,
        first_name,
        last_name
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Claims the one first-card authorisation: true for the one caller that claimed it.
#[tracing::instrument(skip_all)]
pub async fn claim_first_authorisation(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "UPDATE customers SET first_authorised_at = now() WHERE user_id = $1 AND first_authorised_at IS NULL",
        user_id
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

#[tracing::instrument(skip_all)]
pub async fn mark_benefit_applied(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE customers SET one_time_benefit_applied = true WHERE user_id = $1",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn profile(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<Option<PaymentProfile>> {
    sqlx::query_as!(
        PaymentProfile,
        r#"SELECT c.stripe_customer_id, c.default_payment_method,
                  COALESCE(w.auto_topping_up_amount_cents, 0) AS "auto_topping_up_amount!",
                  COALESCE(w.balance_cents, 0) AS "credit_card_wallet_balance!",
                  c.one_time_benefit_applied
           FROM customers c LEFT JOIN wallets w ON w.user_id = c.user_id WHERE c.user_id = $1"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Deletes the customer and, by cascade, its cards, wallet, ledger, intents and purchases.
#[tracing::instrument(skip_all)]
pub async fn delete(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM customers WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Locks the user's customer row against writers and new purchases (whose foreign key shares it)
/// until the end of the transaction; false when there is none.
#[tracing::instrument(skip_all)]
pub async fn lock_row(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!(
        "SELECT 1 AS one FROM customers WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(conn)
    .await?
    .is_some())
}
