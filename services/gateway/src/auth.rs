//! Bearer authentication: the gateway verifies the access token, refuses one whose session has
//! ended (the deny-list in Redis that accounts writes when a session, or every session of an
//! account, ends), and passes the user on to the services in gRPC metadata (services never see
//! the token).

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{header::AUTHORIZATION, request::Parts},
};
use evidentia_common::{
    auth::{is_session_revoked, verify_access},
    config::SecretString,
    grpc::Caller,
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
        let sessions = Sessions::from_ref(state);
        let token = bearer(parts).ok_or_else(ApiError::unauthorized)?;
        let access =
            verify_access(&sessions.key, token.trim()).ok_or_else(ApiError::unauthorized)?;
        // Fail closed: without the deny-list no token can be trusted to be still valid.
        let revoked = is_session_revoked(&sessions.redis, access.session_id)
            .await
            .map_err(|err| ApiError::unavailable(&err))?;
        if revoked {
            return Err(ApiError::unauthorized());
        }
        tracing::Span::current().record("enduser.id", tracing::field::display(access.user_id));
        let mut caller = caller_from(parts);
        caller.user_id = Some(access.user_id);
        Ok(Self(caller))
    }
}

fn bearer(parts: &Parts) -> Option<&str> {
    parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
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
