//! Passwords: hashed with Argon2 off the async threads, and checked the way sign-in does, with a
//! backoff on failures.
//!
//! Guessing is slowed, never turned into a lockout of the owner (OWASP's authentication
//! guidance): failures count per account and client address together, so a stranger hammering a
//! username only makes *their own* attempts wait, and per client address across accounts, where
//! only failures count, so an office behind one address signing in correctly is never slowed.

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use evidentia_common::{errors::FieldError, ratelimit};
use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::history,
    config::{Limits, SessionSettings},
    domain::{Action, Fields, Password, REQUIRED, Seen},
    error::AccountsError,
    store::users::{self, Credentials},
};

pub async fn hash_password(password: Password) -> Result<String, AccountsError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.expose().as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hash password: {e}"))
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(AccountsError::Internal)
}

/// Whether `password` is the one `hash` was made from.
pub async fn matches(hash: String, password: String) -> Result<bool, AccountsError> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&hash).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(anyhow::Error::from)?
}

/// The backoff key of password attempts on one account from one client address (sign-in and
/// password verification share it).
fn attempts_key(account: &str, client_ip: &str) -> String {
    format!("accounts:login:pair:{account}:{client_ip}")
}

/// What signing in needs: the accounts, the failure backoff with its limits, and the settings
/// of the session it starts.
pub struct SignIn<'a> {
    pub pool: &'a PgPool,
    pub redis: &'a ConnectionManager,
    pub limits: &'a Limits,
    pub sessions: &'a SessionSettings,
}

/// A login (username or e-mail) and password as typed, and where they came from.
#[derive(Debug, Clone, Copy)]
pub struct Attempt<'a> {
    pub login: &'a str,
    pub password: &'a str,
    pub seen: &'a Seen,
}

/// Checks a login and password the way sign-in does: required fields, failure backoff, one
/// message for an unknown user and a wrong password. A failed attempt on a known account is
/// recorded in its history. Deleted accounts are found too: the caller decides what they get.
pub async fn authenticate(
    deps: &SignIn<'_>,
    Attempt {
        login,
        password,
        seen,
    }: Attempt<'_>,
) -> Result<Credentials, AccountsError> {
    let login = login.trim().to_lowercase();
    let mut fields = Fields::default();
    if login.is_empty() {
        fields.check::<()>(Err(FieldError::new("username", REQUIRED)));
    }
    if password.is_empty() {
        fields.check::<()>(Err(FieldError::new("password", REQUIRED)));
    }
    fields.finish().map_err(AccountsError::Invalid)?;
    let client_key = format!("accounts:login:client:{}", seen.ip);
    if !seen.ip.is_empty() {
        AccountsError::limited(ratelimit::backoff_check(deps.redis, &client_key).await?)?;
    }
    let mut conn = deps.pool.acquire().await?;
    let found = users::credentials_by_login(&mut conn, &login).await?;
    // Whichever name was typed, the account is one key; an unknown login is counted under itself.
    let account = match &found {
        Some(user) => user.id.to_string(),
        None => format!("unknown:{login}"),
    };
    let pair_key = attempts_key(&account, &seen.ip);
    AccountsError::limited(ratelimit::backoff_check(deps.redis, &pair_key).await?)?;
    let matched = match &found {
        Some(user) => matches(user.password_hash.clone(), password.to_owned()).await?,
        None => false,
    };
    if !matched {
        ratelimit::backoff_fail(deps.redis, &pair_key, deps.limits.pair_backoff()).await?;
        if !seen.ip.is_empty() {
            ratelimit::backoff_fail(deps.redis, &client_key, deps.limits.client_backoff()).await?;
        }
        if let Some(user) = &found {
            history::record(&mut conn, user.id, Action::SignInFailed, seen).await?;
        }
        return Err(AccountsError::WrongCredentials);
    }
    ratelimit::backoff_reset(deps.redis, &pair_key).await?;
    found.ok_or(AccountsError::WrongCredentials)
}

/// Whether `password` is the user's (for password verification before sensitive changes),
/// behind the same backoff as signing in from this client address.
pub async fn check(
    conn: &mut PgConnection,
    redis: &ConnectionManager,
    limits: &Limits,
    user_id: Uuid,
    client_ip: &str,
    password: &str,
) -> Result<bool, AccountsError> {
    let key = attempts_key(&user_id.to_string(), client_ip);
    AccountsError::limited(ratelimit::backoff_check(redis, &key).await?)?;
    let hash = users::password_hash(conn, user_id)
        .await?
        .ok_or(AccountsError::UserNotFound)?;
    let matched = matches(hash, password.to_owned()).await?;
    if matched {
        ratelimit::backoff_reset(redis, &key).await?;
    } else {
        ratelimit::backoff_fail(redis, &key, limits.pair_backoff()).await?;
    }
    Ok(matched)
}

/// Sets a new password.
pub async fn set(
    conn: &mut PgConnection,
    user_id: Uuid,
    password: Password,
) -> Result<(), AccountsError> {
    let hash = hash_password(password).await?;
    users::set_password_hash(conn, user_id, &hash).await?;
    Ok(())
}
