//! The access token shared by accounts (which issues it) and the gateway (which verifies it):
//! a short-lived HS256 JWT whose subject is the user id and whose `sid` names the session (the
//! refresh-token family). Ending a session puts its id on a deny-list in Redis for as long as an
//! access token can live, so the gateway refuses its tokens at once, not when they expire.
//! The local stack's development key, used only where `EVIDENTIA_LOCAL_STACK=1`
//! (`config::signing_secret`), is [`LOCAL_JWT_SECRET`].

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use redis::aio::ConnectionManager;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    /// The session: tokens without one (issued before sessions were named) are refused.
    #[serde(default)]
    sid: Option<String>,
    iat: i64,
    exp: i64,
    jti: String,
    token_type: String,
}

const ACCESS: &str = "access";

/// The signing key of the local stack only; see `config::signing_secret`.
pub const LOCAL_JWT_SECRET: &str = "local-development-only-jwt-secret-change-me";

/// What a valid access token says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub user_id: Uuid,
    pub session_id: Uuid,
}

/// Issues an access token for `user_id` in session `session_id` that expires after
/// `ttl_seconds`.
pub fn issue_access(
    secret: &SecretString,
    user_id: Uuid,
    session_id: Uuid,
    ttl_seconds: i64,
) -> anyhow::Result<String> {
    let now = chrono::Utc::now().timestamp();
    let claims = Claims {
        sub: user_id.to_string(),
        sid: Some(session_id.to_string()),
        iat: now,
        exp: now + ttl_seconds,
        jti: Uuid::now_v7().to_string(),
        token_type: ACCESS.to_owned(),
    };
    Ok(jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(secret.expose_secret().as_bytes()),
    )?)
}

/// The user and session of a valid, unexpired access token. Whether the session has since ended
/// is [`is_session_revoked`]'s question.
pub fn verify_access(secret: &SecretString, token: &str) -> Option<Access> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    validation.set_required_spec_claims(&["exp", "sub"]);
    let data = jsonwebtoken::decode::<Claims>(
        token,
        &DecodingKey::from_secret(secret.expose_secret().as_bytes()),
        &validation,
    )
    .ok()?;
    if data.claims.token_type != ACCESS {
        return None;
    }
    Some(Access {
        user_id: Uuid::parse_str(&data.claims.sub).ok()?,
        session_id: Uuid::parse_str(data.claims.sid.as_deref()?).ok()?,
    })
}

pub(crate) fn revoked_session_key(session_id: Uuid) -> String {
    format!("auth:revoked-session:{session_id}")
}

/// Puts ended sessions on the deny-list for `ttl_seconds` (the access tokens' lifetime: after
/// it no token of theirs is valid anyway).
pub async fn revoke_sessions(
    redis: &ConnectionManager,
    sessions: &[Uuid],
    ttl_seconds: i64,
) -> redis::RedisResult<()> {
    if sessions.is_empty() {
        return Ok(());
    }
    let ttl = u64::try_from(ttl_seconds.max(1)).unwrap_or(1);
    let mut pipe = redis::pipe();
    for session in sessions {
        pipe.set_ex(revoked_session_key(*session), 1u8, ttl)
            .ignore();
    }
    let mut conn = redis.clone();
    pipe.query_async::<()>(&mut conn).await
}

/// True when the session has ended (logout, a reused refresh token, a password reset, the
/// account deleted, the member removed).
pub async fn is_session_revoked(
    redis: &ConnectionManager,
    session_id: Uuid,
) -> redis::RedisResult<bool> {
    let mut conn = redis.clone();
    redis::cmd("EXISTS")
        .arg(revoked_session_key(session_id))
        .query_async::<bool>(&mut conn)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(s: &str) -> SecretString {
        SecretString::from(s.to_owned())
    }

    #[test]
    fn a_fresh_token_names_its_user_and_session() {
        let user = Uuid::now_v7();
        let session = Uuid::now_v7();
        let token = issue_access(&secret("s1"), user, session, 60).unwrap();
        assert_eq!(
            verify_access(&secret("s1"), &token),
            Some(Access {
                user_id: user,
                session_id: session
            })
        );
    }

    #[test]
    fn a_token_without_a_session_is_refused() {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: Uuid::now_v7().to_string(),
            sid: None,
            iat: now,
            exp: now + 60,
            jti: Uuid::now_v7().to_string(),
            token_type: ACCESS.to_owned(),
        };
        let token = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(b"s1"),
        )
        .unwrap();
        assert_eq!(verify_access(&secret("s1"), &token), None);
    }

    #[test]
    fn expired_forged_and_garbage_tokens_are_rejected() {
        let user = Uuid::now_v7();
        let session = Uuid::now_v7();
        let expired = issue_access(&secret("s1"), user, session, -5).unwrap();
        assert_eq!(verify_access(&secret("s1"), &expired), None);
        let other_key = issue_access(&secret("s2"), user, session, 60).unwrap();
        assert_eq!(verify_access(&secret("s1"), &other_key), None);
        assert_eq!(verify_access(&secret("s1"), "not.a.jwt"), None);
    }
}
