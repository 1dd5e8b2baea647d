//! `purchases` and the `purchase_numbers` sequence: what a user bought, and how it was paid.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::Transaction, pricing::Breakdown};

/// A purchase to record.
#[derive(Debug, Clone)]
pub struct NewPurchase<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kind: &'a str,
    pub description: &'a str,
    pub folder_id: Uuid,
    pub months: Option<i32>,
    pub storage_expires_at: Option<DateTime<Utc>>,
    pub breakdown: Breakdown,
    pub paid_from_wallet: i64,
    pub charged_to_card: i64,
    pub card_payment_intent_id: Option<&'a str>,
    pub share_id: Option<Uuid>,
}

/// Records the purchase under the next transaction number, `EVD-<year>-<number>` (at least six
/// digits), made in the same statement; answers it as `get` would.
#[tracing::instrument(skip_all)]
pub async fn insert(conn: &mut PgConnection, p: &NewPurchase<'_>) -> sqlx::Result<Transaction> {
    sqlx::query_as!(
        Transaction,
        "INSERT INTO purchases (id, user_id, transaction_number, kind, description, folder_id, months,
            storage_expires_at, price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents,
            total_cents, wallet_total_cents, paid_from_wallet_cents, charged_to_card_cents,
            card_payment_intent_id, share_id)
         SELECT $1, $2,
                'EVD-' || to_char(now() AT TIME ZONE 'UTC', 'YYYY') || '-'
                    || lpad(n::text, greatest(6, length(n::text)), '0'),
                $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17
         FROM (SELECT nextval('purchase_numbers') AS n) AS number
         RETURNING id, transaction_number, kind, description, folder_id, months, storage_expires_at,
                price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents, total_cents,
                wallet_total_cents, paid_from_wallet_cents, charged_to_card_cents, created_at,
                refunded_at",
        p.id,
        p.user_id,
        p.kind,
        p.description,
        p.folder_id,
        p.months,
        p.storage_expires_at,
        p.breakdown.price,
        p.breakdown.service_fee,
        p.breakdown.processing_fee,
        p.breakdown.wallet_saving,
        p.breakdown.total,
        p.breakdown.wallet_total,
        p.paid_from_wallet,
        p.charged_to_card,
        p.card_payment_intent_id,
        p.share_id
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn get(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Transaction>> {
    sqlx::query_as!(
        Transaction,
        "SELECT id, transaction_number, kind, description, folder_id, months, storage_expires_at,
                price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents, total_cents,
                wallet_total_cents, paid_from_wallet_cents, charged_to_card_cents, created_at,
                refunded_at
         FROM purchases WHERE user_id = $1 AND id = $2",
        user_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The user's purchases, newest first, at most `limit`.
#[tracing::instrument(skip_all)]
pub async fn list(
    conn: &mut PgConnection,
    user_id: Uuid,
    limit: i64,
) -> sqlx::Result<Vec<Transaction>> {
    sqlx::query_as!(
        Transaction,
        "SELECT id, transaction_number, kind, description, folder_id, months, storage_expires_at,
                price_cents, service_fee_cents, processing_fee_cents, wallet_saving_cents, total_cents,
                wallet_total_cents, paid_from_wallet_cents, charged_to_card_cents, created_at,
                refunded_at
         FROM purchases WHERE user_id = $1 ORDER BY created_at DESC LIMIT $2",
        user_id,
        limit
    )
    .fetch_all(conn)
    .await
}

/// Marks the purchase refunded (once) and answers what it was paid in all; `None` when the user
/// has no such purchase.
#[tracing::instrument(skip_all)]
pub async fn mark_refunded(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"UPDATE purchases SET refunded_at = COALESCE(refunded_at, now())
           WHERE id = $1 AND user_id = $2
           RETURNING paid_from_wallet_cents + charged_to_card_cents AS "paid!""#,
        id,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// The user's first purchase that moved money and was not refunded.
#[tracing::instrument(skip_all)]
pub async fn first_paid(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM purchases
         WHERE user_id = $1 AND refunded_at IS NULL
           AND paid_from_wallet_cents + charged_to_card_cents > 0
         ORDER BY created_at, id LIMIT 1",
        user_id
    )
    .fetch_optional(conn)
    .await
}
