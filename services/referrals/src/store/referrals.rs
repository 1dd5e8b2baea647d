//! `referrals`: friends who signed up with a user's code.

use sqlx::PgConnection;
use uuid::Uuid;

pub struct NewReferral<'a> {
    pub referred_id: Uuid,
    pub referrer_id: Uuid,
    pub email: &'a str,
    pub phone: &'a str,
}

/// Records the referral; an account is referred once (a redelivered event changes nothing and
/// answers false).
#[tracing::instrument(skip_all, fields(user.id = %new.referred_id))]
pub async fn insert(conn: &mut PgConnection, new: &NewReferral<'_>) -> sqlx::Result<bool> {
    let inserted = sqlx::query!(
        "INSERT INTO referrals (referred_id, referrer_id, email, phone) VALUES ($1, $2, $3, $4)
         ON CONFLICT (referred_id) DO NOTHING",
        new.referred_id,
        new.referrer_id,
        new.email,
        new.phone
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

/// What payments decided on a referral's reward: `state` and what the inviter was credited.
#[tracing::instrument(skip_all, fields(user.id = %referred_id))]
pub async fn set_reward(
    conn: &mut PgConnection,
    referred_id: Uuid,
    state: &str,
    referrer_reward: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE referrals SET state = $2, referrer_reward_cents = $3 WHERE referred_id = $1",
        referred_id,
        state,
        referrer_reward
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A referrer's friends: how many signed up, how many were rewarded, and what the referrer
/// earned (cents).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub signed_up: i64,
    pub rewarded: i64,
    pub earned: i64,
}

#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn tally(conn: &mut PgConnection, referrer_id: Uuid) -> sqlx::Result<Tally> {
    let row = sqlx::query!(
        r#"SELECT count(*) AS "signed_up!",
                  count(*) FILTER (WHERE state = 'rewarded') AS "rewarded!",
                  COALESCE(sum(referrer_reward_cents) FILTER (WHERE state = 'rewarded'), 0)::bigint AS "earned!"
           FROM referrals WHERE referrer_id = $1"#,
        referrer_id
    )
    .fetch_one(conn)
    .await?;
    Ok(Tally {
        signed_up: row.signed_up,
        rewarded: row.rewarded,
        earned: row.earned,
    })
}

/// A purged user's referrals: as the friend, the row goes; as the inviter, a reward not yet
/// paid lapses (what was paid stays paid).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn purge(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM referrals WHERE referred_id = $1", user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "UPDATE referrals SET state = 'lapsed'
         WHERE referrer_id = $1 AND state IN ('signed_up', 'held')",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
