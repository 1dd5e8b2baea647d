//! Confirmation codes (spec §3, §5): six digits sent by e-mail or SMS, single use, expiring, with a
//! bounded number of tries; a verified code yields a verification token for the call it unlocks.
//!
//! A code is for a subject (the e-mail being signed up, or a user and the change they make) and a
//! purpose, and goes to a destination; verifying names the same subject and purpose.

use chrono::{Duration, Utc};
use evidentia_common::{
    ratelimit,
    text::{mask_email, mask_phone},
};
use rand::Rng;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    error::AccountsError,
    state::AppState,
    tokens::{hash, random_token},
};

/// What a code or a verification proves. Stored as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    SignUp,
    PasswordReset,
    EmailChange,
    PhoneChange,
    /// A password verification before a sensitive change (no code: the password itself).
    Password,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignUp => "sign_up",
            Self::PasswordReset => "password_reset",
            Self::EmailChange => "email_change",
            Self::PhoneChange => "phone_change",
            Self::Password => "password",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Email,
    Sms,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "email" => Some(Self::Email),
            "sms" => Some(Self::Sms),
            _ => None,
        }
    }
}

/// Where a message goes: an e-mail address or an E.164 phone number, and how it is shown back to
/// the user (`a***@example.com`, `+1 *******100`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    pub channel: Channel,
    pub address: String,
    pub masked: String,
}

impl Destination {
    pub fn email(address: &str) -> Self {
        Self {
            channel: Channel::Email,
            address: address.to_owned(),
            masked: mask_email(address),
        }
    }

    pub fn phone(country_code: &str, national_number: &str) -> Self {
        Self {
            channel: Channel::Sms,
            address: format!("{country_code}{national_number}"),
            masked: mask_phone(country_code, national_number),
        }
    }
}

/// Sends `text` to `to`, by e-mail or SMS.
pub async fn deliver(
    state: &AppState,
    to: &Destination,
    subject: &str,
    text: &str,
) -> Result<(), AccountsError> {
    match to.channel {
        Channel::Email => state.mailer.send(&to.address, subject, text).await?,
        Channel::Sms => state.sms.send(&to.address, text).await?,
    }
    Ok(())
}

/// Bounds the messages (codes, usernames, invites) sent: per client address whatever the
/// destinations, per destination (an e-mail's `+tag` variants are one mailbox), and in all.
pub async fn limit_sends(
    state: &AppState,
    to: &Destination,
    client_ip: &str,
) -> Result<(), AccountsError> {
    let limits = &state.config.limits;
    let window = limits.code_send_window_seconds;
    if !client_ip.is_empty() {
        let key = format!("accounts:code-send:client:{client_ip}");
        AccountsError::limited(
            ratelimit::hit(&state.redis, &key, limits.code_sends_per_client, window).await?,
        )?;
    }
    let key = format!("accounts:code-send:{}", mailbox(&to.address));
    AccountsError::limited(
        ratelimit::hit(&state.redis, &key, limits.code_sends_per_window, window).await?,
    )?;
    AccountsError::limited(
        ratelimit::hit(
            &state.redis,
            "accounts:code-send:total",
            limits.code_sends_total,
            window,
        )
        .await?,
    )
}

/// The mailbox an address reaches: lower case, without a `+tag` in an e-mail's local part
/// (`Ann+1@x.com` and `ann@x.com` are one inbox). Phone numbers pass unchanged.
fn mailbox(address: &str) -> String {
    let address = address.trim().to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

fn code_hash(id: Uuid, code: &str) -> String {
    hash(&format!("{id}:{code}"))
}

/// Sends a new code for `subject` to `to`, replacing any earlier one. Rate-limited per
/// destination. Returns how long the code lives, in seconds.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str(), channel = to.channel.as_str()))]
pub async fn send(
    state: &AppState,
    subject: &str,
    purpose: Purpose,
    to: &Destination,
    client_ip: &str,
) -> Result<i64, AccountsError> {
    limit_sends(state, to, client_ip).await?;
    let limits = &state.config.limits;
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
    let id = Uuid::now_v7();
    let mut tx = state.pool.begin().await?;
    sqlx::query(
        "UPDATE confirmation_codes SET superseded_at = now() \
         WHERE subject = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL",
    )
    .bind(subject)
    .bind(purpose.as_str())
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO confirmation_codes (id, subject, purpose, code_hash, expires_at, channel, destination) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(subject)
    .bind(purpose.as_str())
    .bind(code_hash(id, &code))
    .bind(Utc::now() + Duration::seconds(limits.code_ttl_seconds))
    .bind(to.channel.as_str())
    .bind(&to.address)
    .execute(&mut *tx)
    .await?;
    // Sent before commit: if the message cannot go out, no unusable code is left behind.
    let minutes = limits.code_ttl_seconds / 60;
    let text = match to.channel {
        Channel::Email => format!(
            "Your Evidentia confirmation code is {code}\n\nIt expires in {minutes} minutes. If you did not ask for it, ignore this message.\n"
        ),
        Channel::Sms => {
            format!("Your Evidentia confirmation code is {code}. It expires in {minutes} minutes.")
        }
    };
    deliver(state, to, "Your Evidentia confirmation code", &text).await?;
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

/// Checks `code` against the subject's current code; on success spends it and returns a
/// verification token.
#[tracing::instrument(skip_all, fields(purpose = purpose.as_str()))]
pub async fn verify(
    state: &AppState,
    subject: &str,
    code: &str,
    purpose: Purpose,
) -> Result<String, AccountsError> {
    let code = code.trim().replace(' ', "");
    if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
        return Err(AccountsError::CodeIncorrect);
    }
    let limits = &state.config.limits;
    let mut tx = state.pool.begin().await?;
    let stored: Option<StoredCode> = sqlx::query_as(
        "SELECT id, code_hash, attempts, expires_at FROM confirmation_codes \
         WHERE subject = $1 AND purpose = $2 AND consumed_at IS NULL AND superseded_at IS NULL \
         ORDER BY created_at DESC LIMIT 1 FOR UPDATE",
    )
    .bind(subject)
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
    let token =
        issue_verification(&mut tx, subject, purpose, limits.verification_ttl_seconds).await?;
    tx.commit().await?;
    Ok(token)
}

/// Records a verification of `subject` for `purpose` and returns its token.
pub async fn issue_verification(
    conn: &mut PgConnection,
    subject: &str,
    purpose: Purpose,
    ttl_seconds: i64,
) -> Result<String, AccountsError> {
    let token = random_token();
    sqlx::query(
        "INSERT INTO verifications (token_hash, subject, purpose, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(hash(&token))
    .bind(subject)
    .bind(purpose.as_str())
    .bind(Utc::now() + Duration::seconds(ttl_seconds))
    .execute(conn)
    .await?;
    Ok(token)
}

/// Spends a verification token for `subject` inside the caller's transaction.
pub async fn spend_verification(
    conn: &mut PgConnection,
    token: &str,
    subject: &str,
    purpose: Purpose,
) -> Result<(), AccountsError> {
    let spent = sqlx::query(
        "UPDATE verifications SET used_at = now() \
         WHERE token_hash = $1 AND subject = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > now()",
    )
    .bind(hash(token))
    .bind(subject)
    .bind(purpose.as_str())
    .execute(conn)
    .await?
    .rows_affected();
    if spent == 1 {
        Ok(())
    } else {
        Err(match purpose {
            Purpose::Password => AccountsError::PasswordTokenInvalid,
            Purpose::PasswordReset => AccountsError::RecoveryInvalid,
            _ => AccountsError::VerificationInvalid,
        })
    }
}

/// Checks, without spending, that a password token of `user_id` is still valid: it unlocks every
/// sensitive change for its lifetime.
pub async fn check_password_token(
    conn: &mut PgConnection,
    token: &str,
    user_id: Uuid,
) -> Result<(), AccountsError> {
    let valid: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM verifications WHERE token_hash = $1 AND subject = $2 \
         AND purpose = 'password' AND used_at IS NULL AND expires_at > now())",
    )
    .bind(hash(token))
    .bind(user_id.to_string())
    .fetch_one(conn)
    .await?;
    if valid {
        Ok(())
    } else {
        Err(AccountsError::PasswordTokenInvalid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plus_tags_and_case_reach_one_mailbox() {
        assert_eq!(mailbox("Ann+1@Example.com"), "ann@example.com");
        assert_eq!(mailbox("ann+x+y@example.com"), "ann@example.com");
        assert_eq!(mailbox("ann@example.com"), "ann@example.com");
        assert_eq!(mailbox("+447700900123"), "+447700900123");
    }

    #[test]
    fn addresses_are_masked() {
        assert_eq!(mask_email("ann@example.com"), "a***@example.com");
        assert_eq!(mask_phone("+1", "4155550100"), "+1 *******100");
    }
}
