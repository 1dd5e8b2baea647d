//! The signed-in profile (`GET /api/accounts/me/`, composed by the gateway from accounts and
//! payments) kept in Redis, so that a returning client is answered without the two gRPC calls and
//! their three statements.
//!
//! An answer is stored with the stamp it was read under: the user's *version* and the global
//! *epoch*, random tokens read **before** the services were asked. Anything that makes a profile
//! stale replaces a token, so an answer read before a change carries a token that is no longer
//! current and is not served again:
//! - a row the profile is made of changes: the database trigger of accounts or payments records
//!   the user in `profile_changes`, in the change's transaction, and the service's drainer
//!   ([`keep_fresh`]) replaces the user's version within [`DRAIN_EVERY`];
//! - the user writes anything through the API: the gateway replaces their version before it
//!   answers, so their next read sees their write even before the drainer passes it on;
//! - accounts or payments starts (its part of the profile may have changed with its release): it
//!   replaces the epoch, which drops every stored profile.
//!
//! The triggers record rather than notify: a notifying transaction holds a lock of the whole
//! database cluster from its commit until its commit record is on disk, which would make the
//! writes of every purchase (its wallet row is in the profile) commit one at a time.
//!
//! Tokens are random, never counters: a token that expired or was evicted is made anew, and a new
//! token never equals an old stamp, so a lost key costs a miss, never a stale answer.

use std::time::Duration;

use redis::aio::ConnectionManager;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::auth::revoked_session_key;

/// How long a stored profile lives without being read anew: it bounds the memory of users who
/// went away, not staleness (that is the tokens' work).
pub const ENTRY_TTL_SECONDS: u64 = 600;

/// A version outlives the answers stamped with it; when it goes, the next read makes a new one.
const VERSION_TTL_SECONDS: u64 = 3_600;

const EPOCH_KEY: &str = "profile:epoch";

fn version_key(user_id: Uuid) -> String {
    format!("profile:version:{user_id}")
}

fn entry_key(user_id: Uuid) -> String {
    format!("profile:entry:{user_id}")
}

fn new_token() -> String {
    Uuid::new_v4().simple().to_string()
}

/// The epoch and the user's version an answer was read under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    epoch: String,
    version: String,
}

/// What Redis says about a signed-in read of the profile, in one round trip.
#[derive(Debug)]
pub enum Lookup {
    /// The token's session has ended.
    Revoked,
    /// The stored answer is current: the profile's JSON.
    Hit(Vec<u8>),
    /// No current answer: compose one, then [`store`] it with this stamp.
    Miss(Stamp),
}

/// Asks, in one pipeline, whether the session has ended and whether a current answer is stored;
/// on a miss, makes the missing tokens (before the caller reads the services, as the stamp must
/// be older than what it stamps).
pub async fn lookup(
    redis: &ConnectionManager,
    session_id: Uuid,
    user_id: Uuid,
) -> redis::RedisResult<Lookup> {
    let mut conn = redis.clone();
    let (revoked, epoch, version, entry): (bool, Option<String>, Option<String>, Option<Vec<u8>>) =
        redis::pipe()
            .exists(revoked_session_key(session_id))
            .get(EPOCH_KEY)
            .get(version_key(user_id))
            .get(entry_key(user_id))
            .query_async(&mut conn)
            .await?;
    if revoked {
        return Ok(Lookup::Revoked);
    }
    if let (Some(epoch), Some(version)) = (epoch.as_deref(), version.as_deref())
        && let Some(json) = entry.and_then(|entry| current(entry, epoch, version))
    {
        return Ok(Lookup::Hit(json));
    }
    let epoch = match epoch {
        Some(epoch) => epoch,
        None => make_token(&mut conn, EPOCH_KEY, None).await?,
    };
    let version = match version {
        Some(version) => version,
        None => make_token(&mut conn, &version_key(user_id), Some(VERSION_TTL_SECONDS)).await?,
    };
    Ok(Lookup::Miss(Stamp { epoch, version }))
}

/// Sets a token where there is none and answers the one that is there (another reader's or an
/// invalidation's, when it came first). `SET NX` then `GET` rather than `SET NX GET`, which
/// Redis before 7.0 refuses; an invalidation between the two only makes the answer newer, which
/// is still older than the read it will stamp.
async fn make_token(
    conn: &mut ConnectionManager,
    key: &str,
    ttl_seconds: Option<u64>,
) -> redis::RedisResult<String> {
    let token = new_token();
    let mut set = redis::cmd("SET");
    set.arg(key).arg(&token).arg("NX");
    if let Some(ttl) = ttl_seconds {
        set.arg("EX").arg(ttl);
    }
    let (current,): (Option<String>,) = redis::pipe()
        .add_command(set)
        .ignore()
        .get(key)
        .query_async(conn)
        .await?;
    // Gone again at once (evicted): a stamp of a token no key holds is never current, so the
    // answer it stamps is a miss next time, never stale.
    Ok(current.unwrap_or(token))
}

/// The stored JSON when its stamp is the current one.
fn current(entry: Vec<u8>, epoch: &str, version: &str) -> Option<Vec<u8>> {
    let prefix_len = epoch.len() + version.len() + 2;
    let prefix = entry.get(..prefix_len)?;
    let expected = format!("{epoch}:{version}:");
    (prefix == expected.as_bytes()).then(|| entry[prefix_len..].to_vec())
}

fn encode(stamp: &Stamp, json: &[u8]) -> Vec<u8> {
    let mut entry = format!("{}:{}:", stamp.epoch, stamp.version).into_bytes();
    entry.extend_from_slice(json);
    entry
}

/// Stores a composed answer under the stamp [`lookup`] gave before it was composed.
pub async fn store(
    redis: &ConnectionManager,
    user_id: Uuid,
    stamp: &Stamp,
    json: &[u8],
) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    redis::cmd("SET")
        .arg(entry_key(user_id))
        .arg(encode(stamp, json))
        .arg("EX")
        .arg(ENTRY_TTL_SECONDS)
        .query_async::<()>(&mut conn)
        .await
}

/// Makes the user's stored profile stale.
pub async fn invalidate(redis: &ConnectionManager, user_id: Uuid) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    new_version(user_id).query_async::<()>(&mut conn).await
}

/// Replaces the user's version: every answer stamped with the one before is stale.
fn new_version(user_id: Uuid) -> redis::Cmd {
    let mut set = redis::cmd("SET");
    set.arg(version_key(user_id))
        .arg(new_token())
        .arg("EX")
        .arg(VERSION_TTL_SECONDS);
    set
}

/// Makes every stored profile stale.
pub async fn invalidate_all(redis: &ConnectionManager) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    redis::cmd("SET")
        .arg(EPOCH_KEY)
        .arg(new_token())
        .query_async::<()>(&mut conn)
        .await
}

/// Passes the changes the service's database records in `profile_changes` on to Redis until
/// `shutdown`: every [`DRAIN_EVERY`], each recorded user's stored profile is made stale. Once, when
/// it first reaches Redis, it drops every stored profile: the service's part of them may have
/// changed with its release. Nothing is lost while Redis or the database is away: a recorded change leaves the
/// table only in the transaction that passed it on.
pub async fn keep_fresh(pool: PgPool, redis: ConnectionManager, shutdown: CancellationToken) {
    let mut every = tokio::time::interval(DRAIN_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut owe_all = true;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = every.tick() => {}
        }
        if owe_all {
            match invalidate_all(&redis).await {
                Ok(()) => owe_all = false,
                Err(err) => {
                    tracing::warn!(error = %err, "profile cache: cannot reset");
                    continue;
                }
            }
        }
        if let Err(err) = drain(&pool, &redis).await {
            tracing::warn!(error = %err, "profile cache: cannot pass changes on; trying again");
        }
    }
}

/// How often the recorded changes are passed on: how long, at most, a change made beside the
/// user's own requests (a webhook, an event, a scheduled job) may leave the stored profile served.
/// The user's own writes through the API replace their version before they are answered.
pub const DRAIN_EVERY: Duration = Duration::from_millis(100);

/// The most changes one transaction takes out.
const DRAIN_BATCH: i64 = 1_000;

/// Takes the recorded changes out, a batch a transaction, and replaces each user's version in
/// one Redis pipeline before the transaction commits. Rows another replica is passing on are
/// skipped, not waited for. An empty table costs one read, not a transaction.
pub async fn drain(pool: &PgPool, redis: &ConnectionManager) -> anyhow::Result<()> {
    let recorded = sqlx::query_scalar!(r#"SELECT EXISTS (SELECT FROM profile_changes) AS "any!""#)
        .fetch_one(pool)
        .await?;
    if !recorded {
        return Ok(());
    }
    loop {
        let mut tx = pool.begin().await?;
        let mut users = sqlx::query_scalar!(
            "DELETE FROM profile_changes WHERE ctid = ANY(ARRAY(
                 SELECT ctid FROM profile_changes LIMIT $1 FOR UPDATE SKIP LOCKED))
             RETURNING user_id",
            DRAIN_BATCH
        )
        .fetch_all(&mut *tx)
        .await?;
        let taken = users.len() as i64;
        if users.is_empty() {
            return Ok(());
        }
        users.sort_unstable();
        users.dedup();
        let mut conn = redis.clone();
        let mut pipe = redis::pipe();
        for user_id in users {
            pipe.add_command(new_version(user_id)).ignore();
        }
        pipe.query_async::<()>(&mut conn).await?;
        tx.commit().await?;
        if taken < DRAIN_BATCH {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(epoch: &str, version: &str) -> Stamp {
        Stamp {
            epoch: epoch.to_owned(),
            version: version.to_owned(),
        }
    }

    #[test]
    fn an_entry_is_current_only_under_its_own_epoch_and_version() {
        let entry = encode(&stamp("e1", "v1"), br#"{"id":"x"}"#);
        assert_eq!(
            current(entry.clone(), "e1", "v1").as_deref(),
            Some(&br#"{"id":"x"}"#[..])
        );
        assert_eq!(current(entry.clone(), "e1", "v2"), None);
        assert_eq!(current(entry.clone(), "e2", "v1"), None);
        assert_eq!(current(b"e1:".to_vec(), "e1", "v1"), None);
    }

    #[test]
    fn new_tokens_differ() {
        assert_ne!(new_token(), new_token());
    }
}
