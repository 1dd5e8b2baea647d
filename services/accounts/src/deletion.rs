//! Account deletion: a soft delete with a reason that every service hears (`AccountDeleted`),
//! recovery within the grace period (`AccountRecovered`), and the purge after it
//! (`AccountPurged`), when every service deletes the user's data and the account row goes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::{AccountDeleted, AccountPurged, AccountRecovered};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    codes,
    error::AccountsError,
    history::{self, Action, Seen},
    state::AppState,
    tokens::{self, TokenPair},
    users,
};

/// The reasons offered for a soft delete (`delete-reasons/?delete_type=soft_delete`).
pub const REASONS: [(&str, &str); 6] = [
    ("no_longer_needed", "I no longer need Evidentia"),
    ("another_account", "I have another account"),
    ("too_expensive", "It is too expensive"),
    ("privacy", "I am worried about my privacy"),
    ("hard_to_use", "The app is hard to use"),
    ("other", "Other"),
];

pub const SOFT_DELETE: &str = "soft_delete";

pub fn reasons(
    delete_type: &str,
) -> Result<&'static [(&'static str, &'static str)], AccountsError> {
    match delete_type {
        "" | SOFT_DELETE => Ok(&REASONS),
        _ => Err(AccountsError::field("delete_type", "Unknown delete type.")),
    }
}

/// A checked reason: a known id, and details (3 to 500 characters) when it is "other".
pub fn reason(reason_id: &str, details: &str) -> Result<(String, String), AccountsError> {
    if reason_id.trim().is_empty() {
        return Err(AccountsError::field("reason_id", crate::domain::REQUIRED));
    }
    if !REASONS.iter().any(|(id, _)| *id == reason_id) {
        return Err(AccountsError::field(
            "reason_id",
            "Choose one of the reasons.",
        ));
    }
    let details = details.trim();
    if reason_id == "other" && details.chars().count() < 3 {
        return Err(AccountsError::field("details", "Please tell us why."));
    }
    if details.chars().count() > 500 {
        return Err(AccountsError::field("details", "Maximum 500 characters"));
    }
    Ok((reason_id.to_owned(), details.to_owned()))
}

/// Deletes the account (softly) and ends every session. Returns until when it can be recovered.
pub async fn delete(
    state: &AppState,
    user_id: Uuid,
    reason_id: &str,
    details: &str,
    password_token: &str,
    seen: &Seen,
) -> Result<DateTime<Utc>, AccountsError> {
    let (reason, details) = reason(reason_id, details)?;
    let until = Utc::now() + chrono::Duration::seconds(state.config.recovery_grace_seconds);
    let mut tx = state.pool.begin().await?;
    users::require_active(&mut tx, user_id).await?;
    codes::spend_verification(
        &mut tx,
        password_token,
        &user_id.to_string(),
        codes::Purpose::Password,
    )
    .await?;
    sqlx::query(
        "UPDATE users SET deleted_at = now(), delete_reason = $2, delete_details = $3, recoverable_until = $4, \
         updated_at = now() WHERE id = $1",
    )
    .bind(user_id)
    .bind(&reason)
    .bind(&details)
    .bind(until)
    .execute(&mut *tx)
    .await?;
    tokens::revoke_all(&mut tx, &state.config, &state.redis, user_id).await?;
    history::record(&mut tx, user_id, Action::AccountDeleted, seen).await?;
    outbox::enqueue(
        &mut tx,
        &AccountDeleted {
            user_id: user_id.to_string(),
            reason,
            recoverable_until: Some(timestamp(until)),
            occurred_at: Some(timestamp(Utc::now())),
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(user.id = %user_id, "account deleted");
    Ok(until)
}

/// Restores a deleted account within its grace period, for someone with its password.
pub async fn recover(
    state: &AppState,
    login: &str,
    password: &str,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let user = users::authenticate(state, login, password, seen).await?;
    if user.deleted_at.is_none() {
        return Err(AccountsError::NotDeleted);
    }
    let mut tx = state.pool.begin().await?;
    let restored = sqlx::query(
        "UPDATE users SET deleted_at = NULL, delete_reason = NULL, delete_details = NULL, recoverable_until = NULL, \
         updated_at = now() WHERE id = $1 AND deleted_at IS NOT NULL AND recoverable_until > now()",
    )
    .bind(user.id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if restored != 1 {
        return Err(AccountsError::NotRecoverable);
    }
    history::record(&mut tx, user.id, Action::AccountRecovered, seen).await?;
    outbox::enqueue(
        &mut tx,
        &AccountRecovered {
            user_id: user.id.to_string(),
            occurred_at: Some(timestamp(Utc::now())),
        },
    )
    .await?;
    let pair = tokens::issue(&mut tx, &state.config, user.id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %user.id, "account recovered");
    Ok(pair)
}

/// Purges the accounts whose grace period is over, a batch at a time: each row goes with
/// `AccountPurged` in the same transaction. Returns how many were purged.
pub async fn purge_due(pool: &PgPool) -> Result<usize, AccountsError> {
    let mut tx = pool.begin().await?;
    let due: Vec<Uuid> = sqlx::query_scalar(
        "SELECT id FROM users WHERE deleted_at IS NOT NULL AND recoverable_until <= now() \
         ORDER BY recoverable_until LIMIT 100 FOR UPDATE SKIP LOCKED",
    )
    .fetch_all(&mut *tx)
    .await?;
    for id in &due {
        // The organizations it owns go with it (their members stay, as individuals).
        sqlx::query("DELETE FROM users WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        outbox::enqueue(
            &mut tx,
            &AccountPurged {
                user_id: id.to_string(),
                occurred_at: Some(timestamp(Utc::now())),
            },
        )
        .await?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_need_details_only_for_other() {
        assert!(reason("privacy", "").is_ok());
        assert!(
            matches!(reason("other", ""), Err(AccountsError::Invalid(e)) if e[0].message == "Please tell us why.")
        );
        assert!(
            matches!(reason("bored", ""), Err(AccountsError::Invalid(e)) if e[0].field == "reason_id")
        );
        assert!(reasons("hard_delete").is_err());
    }
}
