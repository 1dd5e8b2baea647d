//! Sessions: short-lived access tokens and rotating refresh tokens. A refresh token is used once;
//! presenting a used one again revokes its whole family (the session), since either the user or
//! a thief holds a copy. The family's id is the session id in every access token it issues; a
//! session that ends goes on the deny-list the gateway checks, before the transaction that ends
//! it commits (a failed commit then costs the session its access tokens, never the reverse).

use chrono::{Duration, Utc};
use evidentia_common::auth;
use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    config::SessionSettings,
    domain::{hash, random_token},
    error::AccountsError,
    store::{refresh_tokens, users},
};

#[derive(Debug, Clone)]
pub struct TokenPair {
    pub access: String,
    pub refresh: String,
    pub access_expires_in_seconds: i64,
}

/// Starts a new session (a new refresh-token family) for `user_id`.
pub async fn start(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    user_id: Uuid,
) -> Result<TokenPair, AccountsError> {
    issue_in_family(conn, settings, user_id, Uuid::now_v7()).await
}

async fn issue_in_family(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    user_id: Uuid,
    family_id: Uuid,
) -> Result<TokenPair, AccountsError> {
    let refresh = random_token();
    let expires_at = Utc::now() + Duration::seconds(settings.refresh_token_ttl_seconds);
    refresh_tokens::insert(conn, family_id, user_id, &hash(&refresh), expires_at).await?;
    let access = auth::issue_access(
        &settings.jwt_secret,
        user_id,
        family_id,
        settings.access_token_ttl_seconds,
    )?;
    Ok(TokenPair {
        access,
        refresh,
        access_expires_in_seconds: settings.access_token_ttl_seconds,
    })
}

/// Exchanges a refresh token for a new pair. A reused token revokes its family, and that
/// revocation is committed though the call fails.
#[tracing::instrument(skip_all)]
pub async fn refresh(
    pool: &PgPool,
    settings: &SessionSettings,
    redis: &ConnectionManager,
    refresh: &str,
) -> Result<TokenPair, AccountsError> {
    let mut tx = pool.begin().await?;
    let rotated = rotate(&mut tx, settings, redis, refresh).await?;
    tx.commit().await?;
    rotated.ok_or(AccountsError::RefreshInvalid)
}

/// The new pair, or `None` when the token is refused.
async fn rotate(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    redis: &ConnectionManager,
    refresh: &str,
) -> Result<Option<TokenPair>, AccountsError> {
    let Some(token) = refresh_tokens::lock_by_hash(conn, &hash(refresh)).await? else {
        return Ok(None);
    };
    if token.revoked_at.is_some() || token.expires_at <= Utc::now() {
        return Ok(None);
    }
    if token.used_at.is_some() {
        tracing::warn!(user.id = %token.user_id, "refresh token reused; revoking its family");
        refresh_tokens::revoke_family(conn, token.family_id).await?;
        deny(settings, redis, vec![token.family_id]).await?;
        return Ok(None);
    }
    refresh_tokens::mark_used(conn, token.id).await?;
    let pair = issue_in_family(conn, settings, token.user_id, token.family_id).await?;
    Ok(Some(pair))
}

/// Ends the caller's session the refresh token belongs to; ending it again changes nothing. A
/// token of another user's, or one never issued, is `NotFound` and ends nothing: a caller ends
/// only their own sessions, and a client that sent a wrong token learns that its session lives.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn end(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    redis: &ConnectionManager,
    user_id: Uuid,
    refresh: &str,
) -> Result<(), AccountsError> {
    let family = refresh_tokens::family_of(conn, user_id, &hash(refresh))
        .await?
        .ok_or(AccountsError::NotFound(SESSION_NOT_FOUND))?;
    refresh_tokens::revoke_family(conn, family).await?;
    deny(settings, redis, vec![family]).await
}

/// A logout's refresh token that is not one of the caller's.
pub const SESSION_NOT_FOUND: &str = "No session of yours has this refresh token.";

/// Ends every session of `user_id` (password reset, deletion, removal from an organization).
pub async fn end_all(
    conn: &mut PgConnection,
    settings: &SessionSettings,
    redis: &ConnectionManager,
    user_id: Uuid,
) -> Result<(), AccountsError> {
    let sessions = refresh_tokens::revoke_user(conn, user_id).await?;
    deny(settings, redis, sessions).await
}

async fn deny(
    settings: &SessionSettings,
    redis: &ConnectionManager,
    mut sessions: Vec<Uuid>,
) -> Result<(), AccountsError> {
    sessions.sort_unstable();
    sessions.dedup();
    auth::revoke_sessions(redis, &sessions, settings.access_token_ttl_seconds).await?;
    Ok(())
}

/// Fails with `Inactive` unless the signed-in user exists and is not deleted: an access token
/// outlives a deletion by at most its lifetime, and must not reach anything meanwhile.
pub async fn require_active(conn: &mut PgConnection, user_id: Uuid) -> Result<(), AccountsError> {
    match users::is_active(conn, user_id).await? {
        Some(true) => Ok(()),
        Some(false) | None => Err(AccountsError::Inactive),
    }
}
