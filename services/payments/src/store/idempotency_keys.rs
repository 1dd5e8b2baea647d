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
    pub balance_after: Option<i64>,
}

/// A key with its request's hash and first answer, to store.
#[derive(Debug)]
pub struct NewKey<'a> {
    pub user_id: Uuid,
    pub key: &'a str,
    pub operation: &'a str,
    pub request_hash: &'a str,
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
        "SELECT operation, request_hash, response, balance_after_cents AS balance_after
         FROM idempotency_keys WHERE user_id = $1 AND key = $2",
        user_id,
        key
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn insert(conn: &mut PgConnection, new: &NewKey<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO idempotency_keys (user_id, key, operation, request_hash, response) VALUES ($1, $2, $3, $4, $5)",
        new.user_id,
        new.key,
        new.operation,
        new.request_hash,
        &new.response
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
