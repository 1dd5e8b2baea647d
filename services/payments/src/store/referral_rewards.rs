//! `referral_rewards`: each referred account's reward, from pending to what became of it.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// A reward as it is decided on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reward {
    pub referred_id: Uuid,
    pub referrer_id: Uuid,
    pub state: String,
    pub reason: String,
    pub purchase_id: Option<Uuid>,
    pub referrer_reward: i64,
    pub friend_reward: i64,
}

/// Records a pending reward; a referral is recorded once (a second call changes nothing).
#[tracing::instrument(skip_all, fields(user.id = %referred_id))]
pub async fn insert_pending(
    conn: &mut PgConnection,
    referred_id: Uuid,
    referrer_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO referral_rewards (referred_id, referrer_id) VALUES ($1, $2)
         ON CONFLICT (referred_id) DO NOTHING",
        referred_id,
        referrer_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the user's reward is in `state` (no lock).
#[tracing::instrument(skip_all)]
pub async fn is_in(conn: &mut PgConnection, referred_id: Uuid, state: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM referral_rewards
                          WHERE referred_id = $1 AND state = $2) AS "found!""#,
        referred_id,
        state
    )
    .fetch_one(conn)
    .await
}

/// The user's reward in one of `states`, locked for the rest of the transaction.
#[tracing::instrument(skip_all)]
pub async fn lock(
    conn: &mut PgConnection,
    referred_id: Uuid,
    states: &[&str],
) -> sqlx::Result<Option<Reward>> {
    let states: Vec<String> = states.iter().map(|s| (*s).to_owned()).collect();
    sqlx::query_as!(
        Reward,
        r#"SELECT referred_id, referrer_id, state, reason, purchase_id,
                  referrer_reward_cents AS referrer_reward, friend_reward_cents AS friend_reward
           FROM referral_rewards WHERE referred_id = $1 AND state = ANY($2) FOR UPDATE"#,
        referred_id,
        &states
    )
    .fetch_optional(conn)
    .await
}

/// The reward decided on `purchase_id`, whoever it was paid to.
#[tracing::instrument(skip_all)]
pub async fn of_purchase(conn: &mut PgConnection, purchase_id: Uuid) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT referred_id FROM referral_rewards WHERE purchase_id = $1",
        purchase_id
    )
    .fetch_optional(conn)
    .await
}

/// Writes what became of the reward.
#[tracing::instrument(skip_all, fields(user.id = %reward.referred_id))]
pub async fn settle(conn: &mut PgConnection, reward: &Reward) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE referral_rewards
         SET state = $2, reason = $3, purchase_id = $4, referrer_reward_cents = $5,
             friend_reward_cents = $6, settled_at = now()
         WHERE referred_id = $1",
        reward.referred_id,
        reward.state,
        reward.reason,
        reward.purchase_id,
        reward.referrer_reward,
        reward.friend_reward
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// How many of the inviter's rewards were paid to them since `since` (their wallet row is locked
/// by the caller, so two friends paying at once are counted one after the other).
#[tracing::instrument(skip_all)]
pub async fn paid_since(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    since: DateTime<Utc>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "paid!" FROM referral_rewards
           WHERE referrer_id = $1 AND state IN ('paid', 'reversed') AND referrer_reward_cents > 0
             AND settled_at >= $2"#,
        referrer_id,
        since
    )
    .fetch_one(conn)
    .await
}

/// Held rewards, oldest first, for the operator who reviews them.
#[tracing::instrument(skip_all)]
pub async fn held(conn: &mut PgConnection) -> sqlx::Result<Vec<Reward>> {
    sqlx::query_as!(
        Reward,
        r#"SELECT referred_id, referrer_id, state, reason, purchase_id,
                  referrer_reward_cents AS referrer_reward, friend_reward_cents AS friend_reward
           FROM referral_rewards WHERE state = 'held' ORDER BY settled_at"#
    )
    .fetch_all(conn)
    .await
}

/// A purged user: their reward as a friend goes; as an inviter, rewards not yet paid lapse. The
/// lapsed ones are answered, for the event that tells referrals.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn purge(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query!(
        "DELETE FROM referral_rewards WHERE referred_id = $1",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar!(
        "UPDATE referral_rewards SET state = 'lapsed', settled_at = now()
         WHERE referrer_id = $1 AND state IN ('pending', 'held')
         RETURNING referred_id",
        user_id
    )
    .fetch_all(conn)
    .await
}
