//! Events referrals reacts to, each handled in the transaction that records it as processed.

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::{AccountCreated, AccountPurged};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::app::referral_codes;

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
        referral_codes::ensure(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}

/// `AccountPurged` deletes the user's referral code and promo redemptions.
pub struct PurgeOnAccountPurged;

#[async_trait]
impl Handler<AccountPurged> for PurgeOnAccountPurged {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountPurged,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        referral_codes::purge(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}
