//! `promo_codes` and `promo_redemptions`.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct PromoCode {
    pub amount_cents: i64,
    pub max_redemptions: Option<i32>,
    pub expires_at: Option<DateTime<Utc>>,
}

/// The code, locked for the rest of the transaction (its redemptions are counted under it).
#[tracing::instrument(skip_all)]
pub async fn lock(conn: &mut PgConnection, code: &str) -> sqlx::Result<Option<PromoCode>> {
    sqlx::query_as!(
        PromoCode,
        "SELECT amount_cents, max_redemptions, expires_at FROM promo_codes WHERE code = $1 FOR UPDATE",
        code
    )
    .fetch_optional(conn)
    .await
}

/// Creates a code; false when one with this text exists.
#[tracing::instrument(skip_all)]
pub async fn insert(conn: &mut PgConnection, code: &str, promo: &PromoCode) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "INSERT INTO promo_codes (code, amount_cents, max_redemptions, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (code) DO NOTHING",
        code,
        promo.amount_cents,
        promo.max_redemptions,
        promo.expires_at
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

#[derive(Debug, Clone)]
pub struct Redemption {
    pub amount_cents: i64,
    pub idempotency_key: String,
}

#[tracing::instrument(skip_all)]
pub async fn redemption(
    conn: &mut PgConnection,
    code: &str,
    user_id: Uuid,
) -> sqlx::Result<Option<Redemption>> {
    sqlx::query_as!(
        Redemption,
        "SELECT amount_cents, idempotency_key FROM promo_redemptions WHERE code = $1 AND user_id = $2",
        code,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// True when the user's redemption of another code was made with this idempotency key.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn key_used_for_another(
    conn: &mut PgConnection,
    user_id: Uuid,
    idempotency_key: &str,
    code: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM promo_redemptions
                          WHERE user_id = $1 AND idempotency_key = $2 AND code <> $3) AS "used!""#,
        user_id,
        idempotency_key,
        code
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn redemptions(conn: &mut PgConnection, code: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM promo_redemptions WHERE code = $1"#,
        code
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn redeem(
    conn: &mut PgConnection,
    id: Uuid,
    code: &str,
    user_id: Uuid,
    amount_cents: i64,
    idempotency_key: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO promo_redemptions (id, code, user_id, amount_cents, idempotency_key) VALUES ($1, $2, $3, $4, $5)",
        id,
        code,
        user_id,
        amount_cents,
        idempotency_key
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn delete_redemptions_of(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM promo_redemptions WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}
