//! Signing in with a username or an e-mail and a password.

use redis::aio::ConnectionManager;
use sqlx::PgPool;

use crate::{
    app::{
        history, passwords,
        sessions::{self, TokenPair},
    },
    config::{Limits, SessionSettings},
    domain::{Action, Seen},
    error::AccountsError,
};

/// Signs in and starts a session. A deleted account answers when it can be recovered, only to
/// someone who knows its password.
#[tracing::instrument(skip_all)]
pub async fn login(
    pool: &PgPool,
    redis: &ConnectionManager,
    limits: &Limits,
    settings: &SessionSettings,
    login: &str,
    password: &str,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let user = passwords::authenticate(pool, redis, limits, login, password, seen).await?;
    if user.deleted_at.is_some() {
        return Err(match user.recoverable_until {
            Some(until) if until > chrono::Utc::now() => AccountsError::AccountDeleted {
                recoverable_until: until,
            },
            _ => AccountsError::NotRecoverable,
        });
    }
    let mut tx = pool.begin().await?;
    history::record(&mut tx, user.id, Action::SignIn, seen).await?;
    let pair = sessions::start(&mut tx, settings, user.id).await?;
    tx.commit().await?;
    Ok(pair)
}
