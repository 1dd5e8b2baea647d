//! Bearer authentication: the gateway verifies the access token, refuses one whose session has
//! ended (the deny-list in Redis that accounts writes when a session, or every session of an
//! account, ends), and passes the user on to the services in gRPC metadata (services never see
//! the token).

use axum::{
    extract::{FromRef, FromRequestParts, Request, State},
    http::{Method, header::AUTHORIZATION, request::Parts},
    middleware::Next,
    response::Response,
};
use evidentia_common::{
    auth::{Access, is_session_revoked, verify_access},
    config::SecretString,
    grpc::Caller,
    profile_cache,
};
use redis::aio::ConnectionManager;

use crate::{error::ApiError, extract::caller_from};

/// What an access token is checked against: the key it is verified with, and the deny-list of
/// ended sessions.
#[derive(Clone)]
pub struct Sessions {
    pub key: SecretString,
    pub redis: ConnectionManager,
}

/// A valid access token, its session not yet asked about: for a handler that asks Redis about
/// the session together with its own question (`accounts/me/`); every other handler takes
/// [`User`]. A missing, invalid or expired token is a 401.
#[derive(Debug, Clone)]
pub struct Token {
    /// The caller, with the token's user.
    pub caller: Caller,
    pub access: Access,
}

impl<S> FromRequestParts<S> for Token
where
    S: Send + Sync,
    Sessions: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let sessions = Sessions::from_ref(state);
        let token = bearer(parts).ok_or_else(ApiError::unauthorized)?;
        let access =
            verify_access(&sessions.key, token.trim()).ok_or_else(ApiError::unauthorized)?;
        tracing::Span::current().record("enduser.id", tracing::field::display(access.user_id));
        let mut caller = caller_from(parts);
        caller.user_id = Some(access.user_id);
        Ok(Self { caller, access })
    }
}

/// A signed-in caller; a missing, invalid or expired token is a 401.
#[derive(Debug, Clone)]
pub struct User(pub Caller);

impl<S> FromRequestParts<S> for User
where
    S: Send + Sync,
    Sessions: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Token { caller, access } = Token::from_request_parts(parts, state).await?;
        let sessions = Sessions::from_ref(state);
        // Fail closed: without the deny-list no token can be trusted to be still valid.
        let revoked = is_session_revoked(&sessions.redis, access.session_id)
            .await
            .map_err(|err| ApiError::unavailable(&err))?;
        if revoked {
            return Err(ApiError::unauthorized());
        }
        Ok(Self(caller))
    }
}

/// After a signed-in write the writer's stored profile is stale: it is marked so before the
/// answer goes, so that the writer's next `accounts/me/` shows the write (the database's own
/// notice of the change reaches the cache a moment later, after the answer may have).
pub async fn forget_profile_after_writes(
    State(sessions): State<Sessions>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return next.run(request).await;
    }
    let writer = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer_token)
        .and_then(|token| verify_access(&sessions.key, token.trim()))
        .map(|access| access.user_id);
    let response = next.run(request).await;
    if let Some(user_id) = writer
        && let Err(err) = profile_cache::invalidate(&sessions.redis, user_id).await
    {
        tracing::warn!(error = %err, "cannot mark the writer's stored profile stale");
    }
    response
}

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(bearer_token)
}

fn bearer_token(header: &str) -> Option<&str> {
    header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
}

/// A caller who may be signed in (a call open to anyone that means more to a signed-in user).
/// A token that is sent must be valid.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Caller);

impl<S> FromRequestParts<S> for MaybeUser
where
    S: Send + Sync,
    Sessions: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if bearer(parts).is_none() {
            return Ok(Self(caller_from(parts)));
        }
        User::from_request_parts(parts, state)
            .await
            .map(|User(caller)| Self(caller))
    }
}
