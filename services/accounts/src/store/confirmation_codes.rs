//! `confirmation_codes`: six-digit codes, kept only as a hash, for a subject and a purpose.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug)]
pub struct NewCode<'a> {
    pub id: Uuid,
    pub subject: &'a str,
    pub purpose: &'a str,
    pub code_hash: &'a str,
    pub expires_at: DateTime<Utc>,
    pub channel: &'a str,
    pub destination: &'a str,
}

#[derive(Debug)]
pub struct CodeRow {
    pub id: Uuid,
    pub code_hash: String,
    pub attempts: i32,
    pub expires_at: DateTime<Utc>,
}

/// Retires the subject's live codes for `purpose`: only the newest one works.
#[tracing::instrument(skip_all, fields(purpose = %purpose))]
pub async fn supersede(conn: &mut PgConnection, subject: &str, purpose: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE confirmation_codes SET superseded_at = now()
         WHERE subject = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL",
        subject,
        purpose
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(code.id = %code.id))]
pub async fn insert(conn: &mut PgConnection, code: &NewCode<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO confirmation_codes
           (id, subject, purpose, code_hash, expires_at, channel, destination)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
        code.id,
        code.subject,
        code.purpose,
        code.code_hash,
        code.expires_at,
        code.channel,
        code.destination
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The subject's live code for `purpose`, locked until the transaction ends.
#[tracing::instrument(skip_all, fields(purpose = %purpose))]
pub async fn lock_current(
    conn: &mut PgConnection,
    subject: &str,
    purpose: &str,
) -> sqlx::Result<Option<CodeRow>> {
    sqlx::query_as!(
        CodeRow,
        "SELECT id, code_hash, attempts, expires_at FROM confirmation_codes
         WHERE subject = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL
         ORDER BY created_at DESC LIMIT 1 FOR UPDATE",
        subject,
        purpose
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn count_attempt(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE confirmation_codes SET attempts = attempts + 1 WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn consume(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE confirmation_codes SET consumed_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}
