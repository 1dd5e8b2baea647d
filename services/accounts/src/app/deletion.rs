//! Account deletion: a soft delete with a reason that every service hears (`AccountDeleted`),
//! recovery within the grace period (`AccountRecovered`), and the purge after it
//! (`AccountPurged`), when every service deletes the user's data and the account row goes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::{AccountDeleted, AccountPurged, AccountRecovered};
use redis::aio::ConnectionManager;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    app::{
        history,
        passwords::{self, Attempt, SignIn},
        sessions::{self, TokenPair},
        verifications,
    },
    config::SessionSettings,
    domain::{Action, Purpose, Seen, deletion::DeleteReason},
    error::AccountsError,
    store::users,
};

/// A deletion as asked: why, and the password token that confirms it.
#[derive(Debug)]
pub struct Deletion<'a> {
    pub reason: DeleteReason,
    pub password_token: &'a str,
}

/// Deletes the account (softly) and ends every session. Returns until when it can be recovered.
#[tracing::instrument(skip_all)]
pub async fn delete(
    pool: &PgPool,
    redis: &ConnectionManager,
    settings: &SessionSettings,
    grace: chrono::Duration,
    user_id: Uuid,
    deletion: Deletion<'_>,
    seen: &Seen,
) -> Result<DateTime<Utc>, AccountsError> {
    let DeleteReason {
        id: reason,
        details,
    } = deletion.reason;
    let until = Utc::now() + grace;
    let mut tx = pool.begin().await?;
    sessions::require_active(&mut tx, user_id).await?;
    let subject = user_id.to_string();
    verifications::spend(
        &mut tx,
        deletion.password_token,
        &subject,
        Purpose::Password,
    )
    .await?;
    users::soft_delete(&mut tx, user_id, &reason, &details, until).await?;
    sessions::end_all(&mut tx, settings, redis, user_id).await?;
    history::record(&mut tx, user_id, Action::AccountDeleted, seen).await?;
    let deleted = AccountDeleted {
        user_id: subject,
        reason,
        recoverable_until: Some(timestamp(until)),
        occurred_at: Some(timestamp(Utc::now())),
    };
    outbox::enqueue(&mut tx, &deleted).await?;
    tx.commit().await?;
    tracing::info!(user.id = %user_id, "account deleted");
    Ok(until)
}

/// Restores a deleted account within its grace period, for someone with its password.
#[tracing::instrument(skip_all)]
pub async fn recover(deps: &SignIn<'_>, attempt: Attempt<'_>) -> Result<TokenPair, AccountsError> {
    let user = passwords::authenticate(deps, attempt).await?;
    if user.deleted_at.is_none() {
        return Err(AccountsError::NotDeleted);
    }
    let mut tx = deps.pool.begin().await?;
    if !users::restore(&mut tx, user.id).await? {
        return Err(AccountsError::NotRecoverable);
    }
    history::record(&mut tx, user.id, Action::AccountRecovered, attempt.seen).await?;
    let recovered = AccountRecovered {
        user_id: user.id.to_string(),
        occurred_at: Some(timestamp(Utc::now())),
    };
    outbox::enqueue(&mut tx, &recovered).await?;
    let pair = sessions::start(&mut tx, deps.sessions, user.id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %user.id, "account recovered");
    Ok(pair)
}

/// Purges the accounts whose grace period is over, a batch at a time: each row goes with
/// `AccountPurged` in the same transaction. Returns how many were purged.
pub async fn purge_due(pool: &PgPool) -> Result<usize, AccountsError> {
    let mut tx = pool.begin().await?;
    let due = users::lock_purge_due(&mut tx).await?;
    for id in &due {
        // The organizations it owns go with it (their members stay, as individuals).
        users::delete(&mut tx, *id).await?;
        let purged = AccountPurged {
            user_id: id.to_string(),
            occurred_at: Some(timestamp(Utc::now())),
        };
        outbox::enqueue(&mut tx, &purged).await?;
        tracing::info!(user.id = %id, "deleted account purged");
    }
    tx.commit().await?;
    Ok(due.len())
}

/// Runs `purge_due` every `interval` until shutdown.
pub async fn run_purger(pool: PgPool, interval: Duration, shutdown: CancellationToken) {
    loop {
        match purge_due(&pool).await {
            Ok(n) if n > 0 => continue,
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "purging deleted accounts failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(interval) => {}
        }
    }
}
