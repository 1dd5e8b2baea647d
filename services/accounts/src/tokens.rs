//! Sessions: short-lived access tokens and rotating refresh tokens. A refresh token is used once;
//! presenting a used one again revokes its whole family (the session), since either the user or
//! a thief holds a copy. The family's id is the session id in every access token it issues; a
//! session that ends goes on the deny-list the gateway checks, before the transaction that ends
//! it commits (a failed commit then costs the session its access tokens, never the reverse).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::{Duration, Utc};
use evidentia_common::auth;
use rand::RngCore;
use redis::aio::ConnectionManager;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{config::Config, error::AccountsError};

#[derive(Debug, Clone)]
pub struct TokenPair {
    pub access: String,
    pub refresh: String,
    pub access_expires_in_seconds: i64,
}

pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A random URL-safe secret of 32 bytes.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Starts a new session (a new refresh-token family) for `user_id`.
pub async fn issue(
    conn: &mut PgConnection,
    config: &Config,
    user_id: Uuid,
) -> Result<TokenPair, AccountsError> {
    issue_in_family(conn, config, user_id, Uuid::now_v7()).await
}

async fn issue_in_family(
    conn: &mut PgConnection,
    config: &Config,
    user_id: Uuid,
    family_id: Uuid,
) -> Result<TokenPair, AccountsError> {
    let refresh = random_token();
    sqlx::query(
        "INSERT INTO refresh_tokens (id, family_id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(Uuid::now_v7())
    .bind(family_id)
    .bind(user_id)
    .bind(hash(&refresh))
    .bind(Utc::now() + Duration::seconds(config.refresh_token_ttl_seconds))
    .execute(conn)
    .await?;
    let access = auth::issue_access(
        &config.jwt_secret,
        user_id,
        family_id,
        config.access_token_ttl_seconds,
    )?;
    Ok(TokenPair {
        access,
        refresh,
        access_expires_in_seconds: config.access_token_ttl_seconds,
    })
}

#[derive(sqlx::FromRow)]
struct StoredToken {
    id: Uuid,
    family_id: Uuid,
    user_id: Uuid,
    expires_at: chrono::DateTime<Utc>,
    used_at: Option<chrono::DateTime<Utc>>,
    revoked_at: Option<chrono::DateTime<Utc>>,
}

/// Outcome of presenting a refresh token: the rotated pair, or why it was refused. A reuse must
/// be committed (the family's revocation) even though the call fails.
pub enum Rotation {
    Rotated(TokenPair),
    Refused,
}

/// Exchanges a refresh token for a new pair, revoking the family on reuse.
#[tracing::instrument(skip_all)]
pub async fn rotate(
    conn: &mut PgConnection,
    config: &Config,
    redis: &ConnectionManager,
    refresh: &str,
) -> Result<Rotation, AccountsError> {
    let stored: Option<StoredToken> = sqlx::query_as(
        "SELECT id, family_id, user_id, expires_at, used_at, revoked_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE",
    )
    .bind(hash(refresh))
    .fetch_optional(&mut *conn)
    .await?;
    let Some(token) = stored else {
        return Ok(Rotation::Refused);
    };
    if token.revoked_at.is_some() || token.expires_at <= Utc::now() {
        return Ok(Rotation::Refused);
    }
    if token.used_at.is_some() {
        tracing::warn!(user.id = %token.user_id, "refresh token reused; revoking its family");
        revoke_family(conn, config, redis, token.family_id).await?;
        return Ok(Rotation::Refused);
    }
    sqlx::query("UPDATE refresh_tokens SET used_at = now() WHERE id = $1")
        .bind(token.id)
        .execute(&mut *conn)
        .await?;
    let pair = issue_in_family(conn, config, token.user_id, token.family_id).await?;
    Ok(Rotation::Rotated(pair))
}

/// Ends the session the refresh token belongs to.
pub async fn revoke_by_token(
    conn: &mut PgConnection,
    config: &Config,
    redis: &ConnectionManager,
    refresh: &str,
) -> Result<(), AccountsError> {
    let sessions: Vec<Uuid> = sqlx::query_scalar(
        "UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND family_id = \
         (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) RETURNING family_id",
    )
    .bind(hash(refresh))
    .fetch_all(&mut *conn)
    .await?;
    deny(config, redis, sessions).await
}

async fn revoke_family(
    conn: &mut PgConnection,
    config: &Config,
    redis: &ConnectionManager,
    family_id: Uuid,
) -> Result<(), AccountsError> {
    sqlx::query(
        "UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL",
    )
    .bind(family_id)
    .execute(&mut *conn)
    .await?;
    deny(config, redis, vec![family_id]).await
}

/// Ends every session of `user_id` (password reset, deletion, removal from an organization).
pub async fn revoke_all(
    conn: &mut PgConnection,
    config: &Config,
    redis: &ConnectionManager,
    user_id: Uuid,
) -> Result<(), AccountsError> {
    let sessions: Vec<Uuid> = sqlx::query_scalar(
        "UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL \
         RETURNING family_id",
    )
    .bind(user_id)
    .fetch_all(&mut *conn)
    .await?;
    deny(config, redis, sessions).await
}

async fn deny(
    config: &Config,
    redis: &ConnectionManager,
    mut sessions: Vec<Uuid>,
) -> Result<(), AccountsError> {
    sessions.sort_unstable();
    sessions.dedup();
    auth::revoke_sessions(redis, &sessions, config.access_token_ttl_seconds).await?;
    Ok(())
}
