//! Confirmation codes (spec §3, §5): six digits sent by e-mail, single use, expiring, with a
//! bounded number of tries; a verified code yields a verification token for the call it unlocks.

use chrono::{Duration, Utc};
use evidentia_common::ratelimit;
use rand::Rng;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::Email,
    error::AccountsError,
    startup::AppState,
    tokens::{hash, random_token},
};

/// What a code proves. Stored as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    SignUp,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignUp => "sign_up",
        }
    }
}

fn code_hash(id: Uuid, code: &str) -> String {
    hash(&format!("{id}:{code}"))
}

/// Sends a new code to `email`, replacing any earlier one. Rate-limited per address.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str()))]
pub async fn send(state: &AppState, email: &Email, purpose: Purpose) -> Result<i64, AccountsError> {
    let limits = &state.config.limits;
    let key = format!("accounts:code-send:{}", email.as_str());
    if !ratelimit::hit(
        &state.redis,
        &key,
        limits.code_sends_per_window,
        limits.code_send_window_seconds,
    )
    .await?
    {
        return Err(AccountsError::RateLimited);
    }
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
    let id = Uuid::now_v7();
    let mut tx = state.pool.begin().await?;
    sqlx::query(
        "UPDATE confirmation_codes SET superseded_at = now() \
         WHERE lower(email) = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL",
    )
    .bind(email.as_str())
    .bind(purpose.as_str())
    .execute(&mut *tx)
    .await?;
    sqlx::query("INSERT INTO confirmation_codes (id, email, purpose, code_hash, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(email.as_str())
        .bind(purpose.as_str())
        .bind(code_hash(id, &code))
        .bind(Utc::now() + Duration::seconds(limits.code_ttl_seconds))
        .execute(&mut *tx)
        .await?;
    // Sent before commit: if the mail cannot go out, no unusable code is left behind.
    let minutes = limits.code_ttl_seconds / 60;
    state
        .mailer
        .send(
            email.as_str(),
            "Your Evidentia confirmation code",
            &format!(
                "Your Evidentia confirmation code is {code}\n\nIt expires in {minutes} minutes. If you did not ask for it, ignore this message.\n"
            ),
        )
        .await?;
    tx.commit().await?;
    Ok(limits.code_ttl_seconds)
}

#[derive(sqlx::FromRow)]
struct StoredCode {
    id: Uuid,
    code_hash: String,
    attempts: i32,
    expires_at: chrono::DateTime<Utc>,
}

/// Checks `code` against the address's current code; on success spends it and returns a
/// verification token.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str()))]
pub async fn verify(
    state: &AppState,
    email: &Email,
    code: &str,
    purpose: Purpose,
) -> Result<String, AccountsError> {
    let limits = &state.config.limits;
    let mut tx = state.pool.begin().await?;
    let stored: Option<StoredCode> = sqlx::query_as(
        "SELECT id, code_hash, attempts, expires_at FROM confirmation_codes \
         WHERE lower(email) = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL \
         ORDER BY created_at DESC LIMIT 1 FOR UPDATE",
    )
    .bind(email.as_str())
    .bind(purpose.as_str())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(stored) = stored else {
        return Err(AccountsError::CodeExpired);
    };
    if stored.expires_at <= Utc::now() {
        return Err(AccountsError::CodeExpired);
    }
    if stored.attempts >= limits.code_max_attempts {
        return Err(AccountsError::CodeAttemptsExhausted);
    }
    let code = code.trim().replace(' ', "");
    if code_hash(stored.id, &code) != stored.code_hash {
        sqlx::query("UPDATE confirmation_codes SET attempts = attempts + 1 WHERE id = $1")
            .bind(stored.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Err(if stored.attempts + 1 >= limits.code_max_attempts {
            AccountsError::CodeAttemptsExhausted
        } else {
            AccountsError::CodeIncorrect
        });
    }
    sqlx::query("UPDATE confirmation_codes SET consumed_at = now() WHERE id = $1")
        .bind(stored.id)
        .execute(&mut *tx)
        .await?;
    let token = random_token();
    sqlx::query("INSERT INTO email_verifications (token_hash, email, purpose, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(hash(&token))
        .bind(email.as_str())
        .bind(purpose.as_str())
        .bind(Utc::now() + Duration::seconds(limits.verification_ttl_seconds))
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(token)
}

/// Spends a verification token for `email` inside the caller's transaction.
pub async fn spend_verification(
    conn: &mut PgConnection,
    token: &str,
    email: &Email,
    purpose: Purpose,
) -> Result<(), AccountsError> {
    let spent = sqlx::query(
        "UPDATE email_verifications SET used_at = now() \
         WHERE token_hash = $1 AND lower(email) = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > now()",
    )
    .bind(hash(token))
    .bind(email.as_str())
    .bind(purpose.as_str())
    .execute(conn)
    .await?
    .rows_affected();
    if spent == 1 {
        Ok(())
    } else {
        Err(AccountsError::VerificationInvalid)
    }
}
