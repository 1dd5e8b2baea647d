//! Confirmation codes (spec §3, §5): six digits sent by e-mail or SMS, single use, expiring, with a
//! bounded number of tries; a verified code yields a verification token for the call it unlocks.
//!
//! A code is for a subject (the e-mail being signed up, or a user and the change they make) and a
//! purpose, and goes to a destination; verifying names the same subject and purpose.

use chrono::{Duration, Utc};
use rand::Rng;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    app::{sender::Sender, verifications},
    config::Limits,
    domain::{Channel, Destination, Purpose, hash},
    error::AccountsError,
    store::confirmation_codes::{self, NewCode},
};

fn code_hash(id: Uuid, code: &str) -> String {
    hash(&format!("{id}:{code}"))
}

fn message(code: &str, channel: Channel, minutes: i64) -> String {
    match channel {
        Channel::Email => format!(
            "Your Evidentia confirmation code is {code}\n\nIt expires in {minutes} minutes. If you did not ask for it, ignore this message.\n"
        ),
        Channel::Sms => {
            format!("Your Evidentia confirmation code is {code}. It expires in {minutes} minutes.")
        }
    }
}

/// Sends a new code for `subject` to `to`, replacing any earlier one. Rate-limited per
/// destination. Returns how long the code lives, in seconds.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str(), channel = to.channel.as_str()))]
pub async fn send(
    pool: &PgPool,
    sender: &Sender<'_>,
    subject: &str,
    purpose: Purpose,
    to: &Destination,
    client_ip: &str,
) -> Result<i64, AccountsError> {
    sender.limit(to, client_ip).await?;
    let ttl = sender.limits.code_ttl_seconds;
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
    let id = Uuid::now_v7();
    let mut tx = pool.begin().await?;
    confirmation_codes::supersede(&mut tx, subject, purpose.as_str()).await?;
    let new = NewCode {
        id,
        subject,
        purpose: purpose.as_str(),
        code_hash: &code_hash(id, &code),
        expires_at: Utc::now() + Duration::seconds(ttl),
        channel: to.channel.as_str(),
        destination: &to.address,
    };
    confirmation_codes::insert(&mut tx, &new).await?;
    // Sent before commit: if the message cannot go out, no unusable code is left behind.
    let text = message(&code, to.channel, ttl / 60);
    sender
        .deliver(to, "Your Evidentia confirmation code", &text)
        .await?;
    tx.commit().await?;
    Ok(ttl)
}

/// Checks `code` against the subject's current code; on success spends it and returns a
/// verification token. A wrong code counts as a try, which is kept though the call fails.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str()))]
pub async fn verify(
    pool: &PgPool,
    limits: &Limits,
    subject: &str,
    code: &str,
    purpose: Purpose,
) -> Result<String, AccountsError> {
    let code = code.trim().replace(' ', "");
    if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(AccountsError::CodeIncorrect);
    }
    let mut tx = pool.begin().await?;
    let stored = confirmation_codes::lock_current(&mut tx, subject, purpose.as_str())
        .await?
        .ok_or(AccountsError::CodeExpired)?;
    if stored.expires_at <= Utc::now() {
        return Err(AccountsError::CodeExpired);
    }
    if stored.attempts >= limits.code_max_attempts {
        return Err(AccountsError::CodeAttemptsExhausted);
    }
    if code_hash(stored.id, &code) != stored.code_hash {
        confirmation_codes::count_attempt(&mut tx, stored.id).await?;
        tx.commit().await?;
        return Err(if stored.attempts + 1 >= limits.code_max_attempts {
            AccountsError::CodeAttemptsExhausted
        } else {
            AccountsError::CodeIncorrect
        });
    }
    confirmation_codes::consume(&mut tx, stored.id).await?;
    let ttl = limits.verification_ttl_seconds;
    let token = verifications::issue(&mut tx, subject, purpose, ttl).await?;
    tx.commit().await?;
    Ok(token)
}

