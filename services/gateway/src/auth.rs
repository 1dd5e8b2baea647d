//! Bearer authentication: the gateway verifies the access token and passes the user on to the
//! services in gRPC metadata (services never see the token).

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{header::AUTHORIZATION, request::Parts},
};
use evidentia_common::{auth::verify_access, config::SecretString, grpc::Caller};

use crate::{error::ApiError, extract::caller_from};

/// The key access tokens are verified with.
#[derive(Clone)]
pub struct TokenKey(pub SecretString);

/// A signed-in caller; a missing, invalid or expired token is a 401.
#[derive(Debug, Clone)]
pub struct User(pub Caller);

impl<S> FromRequestParts<S> for User
where
    S: Send + Sync,
    TokenKey: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let key = TokenKey::from_ref(state);
        let token = bearer(parts).ok_or_else(ApiError::unauthorized)?;
        let user_id = verify_access(&key.0, token.trim()).ok_or_else(ApiError::unauthorized)?;
        tracing::Span::current().record("enduser.id", tracing::field::display(user_id));
        let mut caller = caller_from(parts);
        caller.user_id = Some(user_id);
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
    TokenKey: FromRef<S>,
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
