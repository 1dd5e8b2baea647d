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

#[cfg(test)]
mod tests {
    //! The code-sending use-case against its own database and Redis, with messengers that
    //! record what they are asked to send (or refuse, like an SMTP server that is down).

    use std::sync::Mutex;

    use async_trait::async_trait;
    use evidentia_common::{db, mailer::Mailer, ratelimit, sms::SmsSender, testing};
    use redis::aio::ConnectionManager;

    use super::*;
    use evidentia_common::config::Configuration as _;

    use crate::{config::Config, outbound::Messengers, startup::MIGRATIONS};

    #[derive(Default)]
    struct Recorder {
        sent: Mutex<Vec<(String, String)>>,
        broken: bool,
    }

    impl Recorder {
        fn broken() -> Self {
            Self {
                broken: true,
                ..Self::default()
            }
        }

        fn record(&self, to: &str, body: &str) -> anyhow::Result<()> {
            anyhow::ensure!(!self.broken, "the server refused the message");
            self.sent
                .lock()
                .unwrap()
                .push((to.to_owned(), body.to_owned()));
            Ok(())
        }

        fn sent(&self) -> Vec<(String, String)> {
            self.sent.lock().unwrap().clone()
        }
    }

    #[async_trait]
    impl Mailer for Recorder {
        async fn send(&self, to: &str, _subject: &str, body: &str) -> anyhow::Result<()> {
            self.record(to, body)
        }
    }

    #[async_trait]
    impl SmsSender for Recorder {
        async fn send(&self, to: &str, body: &str) -> anyhow::Result<()> {
            self.record(to, body)
        }
    }

    async fn systems() -> (PgPool, ConnectionManager, Limits) {
        let pool = db::connect_and_migrate(&testing::database_url("accounts").await, &MIGRATIONS)
            .await
            .unwrap();
        let redis = ratelimit::connect(&testing::redis_url()).await.unwrap();
        let mut limits = Config::from_env().unwrap().limits;
        // The ceiling on all messages is shared by every test run on this Redis.
        limits.code_sends_total = u32::MAX;
        (pool, redis, limits)
    }

    fn code_in(text: &str) -> String {
        let (_, rest) = text.split_once("code is ").unwrap();
        rest.chars().take(6).collect()
    }

    fn unique_email() -> String {
        format!("t{}@example.com", Uuid::new_v4().simple())
    }

    #[tokio::test]
    async fn a_code_for_a_phone_goes_by_sms_only_and_verifies_once() {
        let (pool, redis, limits) = systems().await;
        let (mail, sms) = (Recorder::default(), Recorder::default());
        let sender = Sender {
            redis: &redis,
            limits: &limits,
            messengers: Messengers {
                mailer: &mail,
                sms: &sms,
            },
        };
        let number = format!("{:010}", Uuid::new_v4().as_u128() % 10_000_000_000);
        let to = Destination::phone("+1", &number);
        let subject = Uuid::now_v7().to_string();

        let ttl = send(&pool, &sender, &subject, Purpose::PasswordReset, &to, "")
            .await
            .unwrap();

        assert_eq!(ttl, limits.code_ttl_seconds);
        assert!(mail.sent().is_empty());
        let sent = sms.sent();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].0, format!("+1{number}"));
        let minutes = limits.code_ttl_seconds / 60;
        let expiry = format!("It expires in {minutes} minutes.");
        assert!(sent[0].1.ends_with(&expiry), "{sent:?}");
        let code = code_in(&sent[0].1);
        let purpose = Purpose::PasswordReset;
        verify(&pool, &limits, &subject, &code, purpose)
            .await
            .expect("the code sent verifies");
        let again = verify(&pool, &limits, &subject, &code, purpose).await;
        assert!(
            matches!(again, Err(AccountsError::CodeExpired)),
            "{again:?}"
        );
        // Codes are for one purpose.
        let other = verify(&pool, &limits, &subject, &code, Purpose::SignUp).await;
        assert!(
            matches!(other, Err(AccountsError::CodeExpired)),
            "{other:?}"
        );
    }

    #[tokio::test]
    async fn a_code_that_cannot_be_sent_is_not_kept_and_the_one_before_still_works() {
        let (pool, redis, limits) = systems().await;
        let (mail, down, sms) = (Recorder::default(), Recorder::broken(), Recorder::default());
        let working = Sender {
            redis: &redis,
            limits: &limits,
            messengers: Messengers {
                mailer: &mail,
                sms: &sms,
            },
        };
        let failing = Sender {
            messengers: Messengers {
                mailer: &down,
                sms: &sms,
            },
            ..working
        };
        let email = unique_email();
        let to = Destination::email(&email);

        send(&pool, &working, &email, Purpose::SignUp, &to, "")
            .await
            .unwrap();
        let failed = send(&pool, &failing, &email, Purpose::SignUp, &to, "").await;

        assert!(
            matches!(failed, Err(AccountsError::Internal(_))),
            "{failed:?}"
        );
        let sent = mail.sent();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].0, email);
        let code = code_in(&sent[0].1);
        verify(&pool, &limits, &email, &code, Purpose::SignUp)
            .await
            .expect("the earlier code was not replaced by one never sent");
    }
}
