//! Referral rewards. Referrals tells of a friend who signed up with an inviter's code
//! (`ReferralRecorded`); the reward waits, pending, for the friend's first paid purchase, and is
//! then decided once, in that purchase's transaction (or in the event's, when the event comes
//! after the purchase):
//!
//! - refused when the friend and the inviter ever registered the same card (a self-referral);
//! - held for an operator's review when a card of the friend's is also on another account the
//!   same inviter referred (one card behind several "friends");
//! - otherwise the friend's wallet gets `friend_reward`, and the inviter's `referrer_reward` unless
//!   they were already paid `referral_monthly_cap` rewards this calendar month (UTC), in which case
//!   the friend alone is paid (`capped`).
//!
//! Both credits are ledger entries like any other, once per reward by their references. A refund
//! of the first purchase takes back what is left of both credits (a balance never goes below
//! zero). Each outcome is told to referrals (`ReferralRewardSettled`) through the outbox.
//!
//! Locks are taken in one order everywhere: the friend's wallet row, then the reward row, then
//! the inviter's wallet row. A purchase from the wallet has already locked the friend's wallet
//! when it gets here; the inviter signed up before the friend, so no transaction can wait the
//! other way round.

use chrono::{DateTime, Datelike, TimeZone, Utc};
use evidentia_common::{outbox, time};
use evidentia_proto::events::v1::ReferralRewardSettled;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::ledger,
    domain::EntryKind,
    error::PaymentsError,
    pricing::Pricing,
    store::{
        customers, payment_methods, purchases,
        referral_rewards::{self, Reward},
    },
};

/// Why a reward was held or refused, as the operator reads it.
const SAME_CARD: &str = "The friend and the inviter registered the same card.";
const CARD_ON_ANOTHER_FRIEND: &str =
    "A card of this friend's is on another account the inviter referred.";
const NO_INVITER: &str = "The inviter has no payment profile.";
const REFUSED_ON_REVIEW: &str = "Refused on review.";

/// After a purchase is written, in its transaction: the user's pending reward, if any, is decided.
/// A purchase without one asks one indexed question and takes no lock.
pub async fn on_purchase(
    conn: &mut PgConnection,
    pricing: &Pricing,
    user_id: Uuid,
) -> Result<(), PaymentsError> {
    // The cheap question every purchase asks.
    if referral_rewards::is_in(conn, user_id, "pending").await? {
        settle(conn, pricing, user_id).await?;
    }
    Ok(())
}

/// `ReferralRecorded`: the reward is recorded pending, and decided at once when the friend has
/// already paid. The friend's customer row is locked first: a purchase being written holds it (its
/// foreign key) and is waited for, and a purchase that starts later waits for this transaction, so
/// either this transaction sees the purchase or the purchase sees the reward. Without a customer
/// row yet (payments has not yet seen the friend's `AccountCreated`) the event is retried.
pub async fn record(
    conn: &mut PgConnection,
    pricing: &Pricing,
    referred_id: Uuid,
    referrer_id: Uuid,
) -> Result<(), PaymentsError> {
    if customers::billing(conn, referred_id).await?.is_none() {
        return Err(anyhow::anyhow!("the referred account has no customer row yet").into());
    }
    // Customer row, then wallet row: the order a purchase takes them in (its row's foreign key,
    // then its debit), so the two never wait for each other in a circle.
    customers::lock_row(conn, referred_id).await?;
    ledger::lock(conn, referred_id).await?;
    referral_rewards::insert_pending(conn, referred_id, referrer_id).await?;
    settle(conn, pricing, referred_id).await?;
    Ok(())
}

/// Decides the user's pending reward on their first paid purchase; nothing while they have none.
async fn settle(
    conn: &mut PgConnection,
    pricing: &Pricing,
    referred_id: Uuid,
) -> Result<(), PaymentsError> {
    ledger::lock(conn, referred_id).await?;
    let Some(reward) = referral_rewards::lock(conn, referred_id, &["pending"]).await? else {
        return Ok(());
    };
    let Some(purchase) = purchases::first_paid(conn, referred_id).await? else {
        return Ok(());
    };
    let reward = Reward {
        purchase_id: Some(purchase),
        ..reward
    };
    decide(conn, pricing, reward, true).await
}

async fn decide(
    conn: &mut PgConnection,
    pricing: &Pricing,
    reward: Reward,
    hold_when_suspicious: bool,
) -> Result<(), PaymentsError> {
    let (friend, inviter) = (reward.referred_id, reward.referrer_id);
    let outcome = |state: &str, reason: &str| Reward {
        state: state.to_owned(),
        reason: reason.to_owned(),
        referrer_reward: 0,
        friend_reward: 0,
        ..reward.clone()
    };
    let decided = if payment_methods::share_a_card(conn, friend, inviter).await? {
        outcome("refused", SAME_CARD)
    } else if customers::billing(conn, inviter).await?.is_none() {
        outcome("lapsed", NO_INVITER)
    } else if hold_when_suspicious
        && payment_methods::on_another_referral(conn, friend, inviter).await?
    {
        outcome("held", CARD_ON_ANOTHER_FRIEND)
    } else {
        ledger::lock(conn, inviter).await?;
        let paid = referral_rewards::paid_since(conn, inviter, month_start(Utc::now())).await?;
        let capped = paid >= pricing.referral_monthly_cap;
        let decided = Reward {
            referrer_reward: if capped { 0 } else { pricing.referrer_reward },
            friend_reward: pricing.friend_reward,
            ..outcome(if capped { "capped" } else { "paid" }, "")
        };
        credit(
            conn,
            friend,
            decided.friend_reward,
            "friend",
            "Referral reward for joining",
        )
        .await?;
        credit(
            conn,
            inviter,
            decided.referrer_reward,
            &format!("referrer:{friend}"),
            "Referral reward for inviting a friend",
        )
        .await?;
        decided
    };
    tracing::info!(user.id = %friend, referrer.id = %inviter, state = %decided.state, "referral reward decided");
    referral_rewards::settle(conn, &decided).await?;
    tell(conn, &decided).await
}

/// Credits `amount` (nothing when 0) once, by the reward's reference.
async fn credit(
    conn: &mut PgConnection,
    user_id: Uuid,
    amount: i64,
    side: &str,
    description: &str,
) -> Result<(), PaymentsError> {
    if amount > 0 {
        ledger::post(
            conn,
            user_id,
            EntryKind::Referral,
            amount,
            &format!("referral:{user_id}:{side}"),
            description,
        )
        .await?;
    }
    Ok(())
}

/// A refund of `purchase` (in the refund's transaction, which has locked the friend's wallet):
/// when a reward was paid on it, what is left of both credits is taken back.
pub async fn reverse(conn: &mut PgConnection, purchase: Uuid) -> Result<(), PaymentsError> {
    let Some(friend) = referral_rewards::of_purchase(conn, purchase).await? else {
        return Ok(());
    };
    ledger::lock(conn, friend).await?;
    let Some(reward) = referral_rewards::lock(conn, friend, &["paid", "capped"]).await? else {
        return Ok(());
    };
    take_back(conn, friend, reward.friend_reward, "friend").await?;
    take_back(
        conn,
        reward.referrer_id,
        reward.referrer_reward,
        &format!("referrer:{friend}"),
    )
    .await?;
    let reversed = Reward {
        state: "reversed".to_owned(),
        ..reward
    };
    tracing::info!(user.id = %friend, referrer.id = %reversed.referrer_id, "referral reward reversed");
    referral_rewards::settle(conn, &reversed).await?;
    tell(conn, &reversed).await
}

/// Debits what is left of a credit: the credit, or the balance when less was left.
async fn take_back(
    conn: &mut PgConnection,
    user_id: Uuid,
    credited: i64,
    side: &str,
) -> Result<(), PaymentsError> {
    let balance = ledger::lock(conn, user_id).await?;
    let amount = credited.min(balance);
    if amount > 0 {
        ledger::post(
            conn,
            user_id,
            EntryKind::ReferralReversal,
            -amount,
            &format!("referral-reversal:{user_id}:{side}"),
            "Referral reward reversed: the first payment was refunded",
        )
        .await?;
    }
    Ok(())
}

/// An operator's review of a held reward: released, it is paid as any other (the monthly cap
/// still applies); refused, nothing is paid. False when the user has no held reward.
pub async fn review(
    conn: &mut PgConnection,
    pricing: &Pricing,
    referred_id: Uuid,
    release: bool,
) -> Result<bool, PaymentsError> {
    // Asked first: an id without a held reward (a typo, say) may have no wallet to lock.
    if !referral_rewards::is_in(conn, referred_id, "held").await? {
        return Ok(false);
    }
    ledger::lock(conn, referred_id).await?;
    let Some(reward) = referral_rewards::lock(conn, referred_id, &["held"]).await? else {
        return Ok(false);
    };
    if release {
        decide(conn, pricing, reward, false).await?;
    } else {
        let refused = Reward {
            state: "refused".to_owned(),
            reason: REFUSED_ON_REVIEW.to_owned(),
            ..reward
        };
        referral_rewards::settle(conn, &refused).await?;
        tell(conn, &refused).await?;
    }
    Ok(true)
}

/// A purged user's rewards: as the friend, theirs goes; as the inviter, the unpaid ones lapse.
pub async fn purge(conn: &mut PgConnection, user_id: Uuid) -> Result<(), PaymentsError> {
    for friend in referral_rewards::purge(conn, user_id).await? {
        tell(
            conn,
            &Reward {
                referred_id: friend,
                referrer_id: user_id,
                state: "lapsed".to_owned(),
                reason: String::new(),
                purchase_id: None,
                referrer_reward: 0,
                friend_reward: 0,
            },
        )
        .await?;
    }
    Ok(())
}

async fn tell(conn: &mut PgConnection, reward: &Reward) -> Result<(), PaymentsError> {
    outbox::enqueue(
        conn,
        &ReferralRewardSettled {
            referred_id: reward.referred_id.to_string(),
            referrer_id: reward.referrer_id.to_string(),
            state: reward.state.clone(),
            referrer_reward: reward.referrer_reward,
            friend_reward: reward.friend_reward,
            occurred_at: Some(time::timestamp(Utc::now())),
        },
    )
    .await?;
    Ok(())
}

/// The first instant of `now`'s calendar month, UTC.
fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_month_starts_on_its_first_day_at_midnight_utc() {
        let now = Utc.with_ymd_and_hms(2026, 11, 27, 8, 30, 0).unwrap();
        assert_eq!(
            month_start(now),
            Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()
        );
    }
}
