//! `idempotency_keys`: a money-moving request's key and its first answer.

use sqlx::PgConnection;
use uuid::Uuid;

/// Serialises requests with one key until the end of the transaction.
#[tracing::instrument(skip_all)]
pub async fn lock(conn: &mut PgConnection, user_id: Uuid, key: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        format!("{user_id}:{key}")
    )
    .fetch_one(conn)
    .await?;
    Ok(())
}

#[derive(Debug)]
pub struct Stored {
    pub operation: String,
    pub request_hash: String,
    pub response: Vec<u8>,
}

#[tracing::instrument(skip_all)]
pub async fn find(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
) -> sqlx::Result<Option<Stored>> {
    sqlx::query_as!(
        Stored,
        "SELECT operation, request_hash, response FROM idempotency_keys WHERE user_id = $1 AND key = $2",
        user_id,
        key
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn insert(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
    operation: &str,
    request_hash: &str,
    response: &[u8],
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO idempotency_keys (user_id, key, operation, request_hash, response) VALUES ($1, $2, $3, $4, $5)",
        user_id,
        key,
        operation,
        request_hash,
        response
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn delete_for_user(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM idempotency_keys WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}
