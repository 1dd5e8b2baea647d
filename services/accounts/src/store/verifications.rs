//! `verifications`: what a verified code or password gives (sign-up, reset, change and password
//! tokens), kept as a hash and spent by the call it unlocks.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

#[tracing::instrument(skip_all, fields(purpose = %purpose))]
pub async fn insert(
    conn: &mut PgConnection,
    token_hash: &str,
    subject: &str,
    purpose: &str,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO verifications (token_hash, subject, purpose, expires_at)
         VALUES ($1, $2, $3, $4)",
        token_hash,
        subject,
        purpose,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks the token used; false when it is not the subject's, not for `purpose`, used or expired.
#[tracing::instrument(skip_all, fields(purpose = %purpose))]
pub async fn spend(
    conn: &mut PgConnection,
    token_hash: &str,
    subject: &str,
    purpose: &str,
) -> sqlx::Result<bool> {
    let spent = sqlx::query!(
        "UPDATE verifications SET used_at = now()
         WHERE token_hash = $1 AND subject = $2 AND purpose = $3
           AND used_at IS NULL AND expires_at > now()",
        token_hash,
        subject,
        purpose
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(spent == 1)
}

/// Whether the subject's password token is unused and unexpired (it is not spent by looking).
#[tracing::instrument(skip_all)]
pub async fn password_token_valid(
    conn: &mut PgConnection,
    token_hash: &str,
    subject: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
             SELECT 1 FROM verifications WHERE token_hash = $1 AND subject = $2
             AND purpose = 'password' AND used_at IS NULL AND expires_at > now()
           ) AS "valid!""#,
        token_hash,
        subject
    )
    .fetch_one(conn)
    .await
}
