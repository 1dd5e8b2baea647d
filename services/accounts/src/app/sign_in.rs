//! Signing in with a username or an e-mail and a password.

use crate::{
    app::{
        history,
        passwords::{self, Attempt, SignIn},
        sessions::{self, TokenPair},
    },
    domain::Action,
    error::AccountsError,
};

/// Signs in and starts a session. A deleted account answers when it can be recovered, only to
/// someone who knows its password.
#[tracing::instrument(skip_all)]
pub async fn login(deps: &SignIn<'_>, attempt: Attempt<'_>) -> Result<TokenPair, AccountsError> {
    let user = passwords::authenticate(deps, attempt).await?;
    if user.deleted_at.is_some() {
        return Err(match user.recoverable_until {
            Some(until) if until > chrono::Utc::now() => AccountsError::AccountDeleted {
                recoverable_until: until,
            },
            _ => AccountsError::NotRecoverable,
        });
    }
    let mut tx = deps.pool.begin().await?;
    history::record(&mut tx, user.id, Action::SignIn, attempt.seen).await?;
    let pair = sessions::start(&mut tx, deps.sessions, user.id).await?;
    tx.commit().await?;
    Ok(pair)
}
