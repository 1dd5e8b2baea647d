//! `refresh_tokens`: one row per refresh token, kept as a hash; a family is one session.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug)]
pub struct RefreshTokenRow {
    pub id: Uuid,
    pub family_id: Uuid,
    pub user_id: Uuid,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn insert(
    conn: &mut PgConnection,
    family_id: Uuid,
    user_id: Uuid,
    token_hash: &str,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO refresh_tokens (id, family_id, user_id, token_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
        Uuid::now_v7(),
        family_id,
        user_id,
        token_hash,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The token with this hash, locked until the transaction ends.
#[tracing::instrument(skip_all)]
pub async fn lock_by_hash(
    conn: &mut PgConnection,
    token_hash: &str,
) -> sqlx::Result<Option<RefreshTokenRow>> {
    sqlx::query_as!(
        RefreshTokenRow,
        "SELECT id, family_id, user_id, expires_at, used_at, revoked_at
         FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE",
        token_hash
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(token.id = %id))]
pub async fn mark_used(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE refresh_tokens SET used_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The session (token family) of `user_id`'s refresh token with this hash, live or revoked;
/// `None` for another user's token or one never issued.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn family_of(
    conn: &mut PgConnection,
    user_id: Uuid,
    token_hash: &str,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND user_id = $2",
        token_hash,
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(session.id = %family_id))]
pub async fn revoke_family(conn: &mut PgConnection, family_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL",
        family_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Revokes every live token of the user; returns their families (one per token revoked).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn revoke_user(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL
         RETURNING family_id",
        user_id
    )
    .fetch_all(conn)
    .await
}
