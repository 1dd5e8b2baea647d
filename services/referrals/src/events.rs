//! Events referrals reacts to, each handled in the transaction that records it as processed.

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::{
    AccountCreated, AccountDeleted, AccountPurged, ReferralRewardSettled,
};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::app::referral_codes;

/// `AccountCreated` gives the new user a referral code and records whose referral they are.
pub struct RecordOnSignUp;

#[async_trait]
impl Handler<AccountCreated> for RecordOnSignUp {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        referral_codes::on_sign_up(conn, &event).await?;
        Ok(())
    }
}

/// `ReferralRewardSettled` (from payments) is what became of a referral's reward.
pub struct RecordRewardOutcome;

#[async_trait]
impl Handler<ReferralRewardSettled> for RecordRewardOutcome {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: ReferralRewardSettled,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        referral_codes::on_reward(conn, &event).await?;
        Ok(())
    }
}

/// `AccountDeleted` removes the user's invitations.
pub struct ForgetInvitationsOnDeletion;

#[async_trait]
impl Handler<AccountDeleted> for ForgetInvitationsOnDeletion {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountDeleted,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        referral_codes::on_deletion(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}

/// `AccountPurged` removes everything referrals keeps of the user.
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
