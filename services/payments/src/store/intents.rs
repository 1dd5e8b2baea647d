//! `payment_intents`: every PaymentIntent we created and what its success means.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Purpose;

/// A PaymentIntent to record (or to move to a new status when it is known).
#[derive(Debug, Clone)]
pub struct NewIntent<'a> {
    pub id: &'a str,
    pub user_id: Uuid,
    pub purpose: Purpose,
    pub amount: i64,
    pub payment_method: &'a str,
    /// For a wallet creation: the auto top-up amount the wallet gets.
    pub auto_amount: Option<i64>,
    pub status: &'a str,
}

#[tracing::instrument(skip_all)]
pub async fn upsert(conn: &mut PgConnection, intent: &NewIntent<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO payment_intents (id, user_id, purpose, amount_cents, payment_method_id, auto_topping_up_amount_cents, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()",
        intent.id,
        intent.user_id,
        intent.purpose.as_str(),
        intent.amount,
        intent.payment_method,
        intent.auto_amount,
        intent.status
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A recorded intent, as crediting it needs.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub user_id: Uuid,
    pub purpose: String,
    pub amount_cents: i64,
    pub payment_method_id: String,
    pub auto_topping_up_amount_cents: Option<i64>,
}

/// The intent, locked for the rest of the transaction (its webhook and the service may both
/// credit it).
#[tracing::instrument(skip_all)]
pub async fn lock(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<Recorded>> {
    sqlx::query_as!(
        Recorded,
        "SELECT user_id, purpose, amount_cents, payment_method_id, auto_topping_up_amount_cents
         FROM payment_intents WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn mark_credited(conn: &mut PgConnection, id: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE payment_intents SET status = 'succeeded', credited_at = COALESCE(credited_at, now()), updated_at = now()
         WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks an intent that was not credited failed; `None` when there is none such.
#[tracing::instrument(skip_all)]
pub async fn mark_failed(conn: &mut PgConnection, id: &str) -> sqlx::Result<Option<Recorded>> {
    sqlx::query_as!(
        Recorded,
        "UPDATE payment_intents SET status = 'failed', updated_at = now()
         WHERE id = $1 AND credited_at IS NULL
         RETURNING user_id, purpose, amount_cents, payment_method_id, auto_topping_up_amount_cents",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The user's browser-confirmed intents of the last day that were not credited yet.
#[tracing::instrument(skip_all)]
pub async fn open(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT id FROM payment_intents WHERE user_id = $1 AND credited_at IS NULL
         AND status = 'created' AND created_at > now() - interval '1 day'",
        user_id
    )
    .fetch_all(conn)
    .await
}
