//! `declined_charges`: card charges that were refused, one row per attempt.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Decline;

/// Records a declined card charge once per reference (the PaymentIntent, or the idempotency key
/// the charge went to Stripe with).
#[tracing::instrument(skip_all)]
pub async fn insert(conn: &mut PgConnection, decline: &Decline<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO declined_charges (id, user_id, purpose, amount_cents, payment_method_id, message, reference)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (reference) DO NOTHING",
        Uuid::now_v7(),
        decline.user_id,
        decline.purpose.as_str(),
        decline.amount,
        decline.payment_method,
        decline.message,
        decline.reference
    )
    .execute(conn)
    .await?;
    Ok(())
}
