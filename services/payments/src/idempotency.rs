//! Idempotency keys of money-moving calls: the key and the first answer are written in the same
//! transaction as the write they guard, so a retried request returns that answer and moves no
//! money. Concurrent requests with one key are serialised by an advisory lock on the key.

use prost::Message;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::error::PaymentsError;

/// A checked key (the one rule, `evidentia_common::idempotency`).
pub fn parse_key(key: &str) -> Result<&str, PaymentsError> {
    evidentia_common::idempotency::parse_key(key).map_err(PaymentsError::from)
}

pub fn request_hash(operation: &str, request: &impl Message) -> String {
    let mut hasher = Sha256::new();
    hasher.update(operation.as_bytes());
    hasher.update([0]);
    hasher.update(request.encode_to_vec());
    hex::encode(hasher.finalize())
}

/// Takes the key's lock for this transaction and returns the stored answer of an earlier request
/// with the same key, if any. The same key with another request is refused.
pub async fn begin<R: Message + Default>(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
    operation: &str,
    hash: &str,
) -> Result<Option<R>, PaymentsError> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind(format!("{user_id}:{key}"))
        .execute(&mut *conn)
        .await?;
    let stored: Option<(String, String, Vec<u8>)> = sqlx::query_as(
        "SELECT operation, request_hash, response FROM idempotency_keys WHERE user_id = $1 AND key = $2",
    )
    .bind(user_id)
    .bind(key)
    .fetch_optional(&mut *conn)
    .await?;
    match stored {
        None => Ok(None),
        Some((op, stored_hash, response)) if op == operation && stored_hash == hash => Ok(Some(
            R::decode(response.as_slice()).map_err(anyhow::Error::from)?,
        )),
        Some(_) => Err(PaymentsError::KeyReused),
    }
}

pub async fn finish(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
    operation: &str,
    hash: &str,
    response: &impl Message,
) -> Result<(), PaymentsError> {
    sqlx::query(
        "INSERT INTO idempotency_keys (user_id, key, operation, request_hash, response) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(user_id)
    .bind(key)
    .bind(operation)
    .bind(hash)
    .bind(response.encode_to_vec())
    .execute(conn)
    .await?;
    Ok(())
}
