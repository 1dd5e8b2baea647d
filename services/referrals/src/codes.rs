//! Referral codes: eight characters from an alphabet without look-alikes (no 0/O, 1/I/L), so a
//! code read aloud or typed from an SMS is unambiguous.

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::AccountCreated;
use rand::Rng;
use sqlx::PgConnection;
use uuid::Uuid;

const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const LENGTH: usize = 8;

pub fn generate() -> String {
    let mut rng = rand::rng();
    (0..LENGTH)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ReferralCode {
    pub code: String,
    pub r#type: String,
}

/// Gives `user_id` a referral code unless it has one; retries on the rare code collision.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn ensure(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<ReferralCode> {
    for _ in 0..5 {
        let inserted = sqlx::query(
            "INSERT INTO referral_codes (user_id, code) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(user_id)
        .bind(generate())
        .execute(&mut *conn)
        .await?;
        if let Some(code) = find(conn, user_id).await? {
            if inserted.rows_affected() == 1 {
                tracing::info!("referral code created");
            }
            return Ok(code);
        }
    }
    Err(sqlx::Error::Protocol(
        "could not find a free referral code".to_owned(),
    ))
}

pub async fn find(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<ReferralCode>> {
    sqlx::query_as("SELECT code, type FROM referral_codes WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await
}

/// `AccountCreated` gives the new user a referral code.
pub struct CreateCodeOnSignUp;

#[async_trait]
impl Handler<AccountCreated> for CreateCodeOnSignUp {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        ensure(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}

/// `AccountPurged` deletes the user's referral code and promo redemptions.
pub struct PurgeOnAccountPurged;

#[async_trait]
impl Handler<evidentia_proto::events::v1::AccountPurged> for PurgeOnAccountPurged {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: evidentia_proto::events::v1::AccountPurged,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let user_id = Uuid::parse_str(&event.user_id)?;
        sqlx::query("DELETE FROM promo_redemptions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM referral_codes WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_unambiguous_alphabet() {
        for _ in 0..200 {
            let code = generate();
            assert_eq!(code.len(), LENGTH);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        }
    }
}
