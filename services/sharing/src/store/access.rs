//! `access_codes` and `access_tokens`: how a recipient proves they hold the address a share was
//! sent to, and what they then present.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct CodeRow {
    pub id: Uuid,
    pub delivery_id: Uuid,
    pub code_hash: Vec<u8>,
    pub tries: i32,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
}

/// A new code for the delivery; the ones sent before stop working (the newest message counts).
#[tracing::instrument(skip_all, fields(delivery.id = %delivery_id))]
pub async fn insert_code(
    conn: &mut PgConnection,
    id: Uuid,
    delivery_id: Uuid,
    code_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE access_codes SET used_at = now() WHERE delivery_id = $1 AND used_at IS NULL",
        delivery_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO access_codes (id, delivery_id, code_hash, expires_at) VALUES ($1, $2, $3, $4)",
        id,
        delivery_id,
        code_hash,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn lock_code(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CodeRow>> {
    sqlx::query_as!(
        CodeRow,
        "SELECT id, delivery_id, code_hash, tries, expires_at, used_at
         FROM access_codes WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn count_try(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<i32> {
    sqlx::query_scalar!(
        "UPDATE access_codes SET tries = tries + 1 WHERE id = $1 RETURNING tries",
        id
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn use_code(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("UPDATE access_codes SET used_at = now() WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(delivery.id = %delivery_id))]
pub async fn insert_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
    delivery_id: Uuid,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO access_tokens (token_hash, delivery_id, expires_at) VALUES ($1, $2, $3)",
        token_hash,
        delivery_id,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The delivery an unexpired token opens.
#[tracing::instrument(skip_all)]
pub async fn token_delivery(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT delivery_id FROM access_tokens WHERE token_hash = $1 AND expires_at > now()",
        token_hash
    )
    .fetch_optional(conn)
    .await
}

/// Ends every token of a share at once.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn end_tokens(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM access_tokens t USING deliveries d
         WHERE d.id = t.delivery_id AND d.share_id = $1",
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
