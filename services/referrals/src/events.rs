//! Events referrals reacts to, each handled in the transaction that records it as processed.

use evidentia_common::handler;
use evidentia_proto::events::v1::{
    AccountCreated, AccountDeleted, AccountPurged, ReferralRewardSettled,
};
use uuid::Uuid;

use crate::app::referral_codes;

/// `AccountCreated` gives the new user a referral code and records whose referral they are.
pub struct RecordOnSignUp;

handler!(RecordOnSignUp, AccountCreated, |conn, event| {
    referral_codes::on_sign_up(conn, &event).await?;
    Ok(())
});

/// `ReferralRewardSettled` (from payments) is what became of a referral's reward.
pub struct RecordRewardOutcome;

handler!(RecordRewardOutcome, ReferralRewardSettled, |conn, event| {
    referral_codes::on_reward(conn, &event).await?;
    Ok(())
});

/// `AccountDeleted` removes the user's invitations.
pub struct ForgetInvitationsOnDeletion;

handler!(
    ForgetInvitationsOnDeletion,
    AccountDeleted,
    |conn, event| {
        referral_codes::on_deletion(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
);

/// `AccountPurged` removes everything referrals keeps of the user.
pub struct PurgeOnAccountPurged;

handler!(PurgeOnAccountPurged, AccountPurged, |conn, event| {
    referral_codes::purge(conn, Uuid::parse_str(&event.user_id)?).await?;
    Ok(())
});
