//! Rate limits kept in Redis, shared by every replica of a service: fixed windows for things
//! sent (codes, messages), and failure backoff for guesses (passwords), which slows a guesser
//! without refusing the owner.

use redis::aio::ConnectionManager;

/// The answer of a limit: go on, or wait this many seconds (what `Retry-After` says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    Refused { retry_after_secs: u64 },
}

impl Verdict {
    pub fn is_allowed(self) -> bool {
        self == Self::Allowed
    }
}

/// Counts one hit on `key` in a window of `window_secs`; refused beyond `limit`, until the window
/// ends.
pub async fn hit(
    redis: &ConnectionManager,
    key: &str,
    limit: u32,
    window_secs: u64,
) -> redis::RedisResult<Verdict> {
    let script = redis::Script::new(
        r"local n = redis.call('INCR', KEYS[1])
          if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
          return {n, redis.call('TTL', KEYS[1])}",
    );
    let mut conn = redis.clone();
    let (count, ttl): (u64, i64) = script
        .key(key)
        .arg(window_secs)
        .invoke_async(&mut conn)
        .await?;
    Ok(if count <= u64::from(limit) {
        Verdict::Allowed
    } else {
        Verdict::Refused {
            retry_after_secs: u64::try_from(ttl).unwrap_or(window_secs).max(1),
        }
    })
}

/// Forgets the hits on `key`.
pub async fn reset(redis: &ConnectionManager, key: &str) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    redis::cmd("DEL")
        .arg(key)
        .query_async::<()>(&mut conn)
        .await
}

/// Exponential backoff after failures: the first `free` failures within `window_secs` cost
/// nothing; each later one makes the key wait 2, 4, 8 ... seconds (at most `max_wait_secs`)
/// before its next attempt is even looked at.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub free: u32,
    pub max_wait_secs: u64,
    pub window_secs: u64,
}

/// Whether `key` must still wait after its last failure.
pub async fn backoff_check(redis: &ConnectionManager, key: &str) -> redis::RedisResult<Verdict> {
    let mut conn = redis.clone();
    let ttl: i64 = redis::cmd("TTL")
        .arg(format!("{key}:wait"))
        .query_async(&mut conn)
        .await?;
    Ok(match u64::try_from(ttl) {
        Ok(secs) if secs > 0 => Verdict::Refused {
            retry_after_secs: secs,
        },
        _ => Verdict::Allowed,
    })
}

/// Records a failure on `key`; answers the wait it now imposes (0 while failures are free).
pub async fn backoff_fail(
    redis: &ConnectionManager,
    key: &str,
    backoff: Backoff,
) -> redis::RedisResult<u64> {
    let script = redis::Script::new(
        r"local n = redis.call('INCR', KEYS[1])
          redis.call('EXPIRE', KEYS[1], ARGV[1])
          local over = n - tonumber(ARGV[2])
          if over <= 0 then return 0 end
          local wait = math.min(2 ^ math.min(over, 30), tonumber(ARGV[3]))
          redis.call('SET', KEYS[2], 1, 'EX', wait)
          return wait",
    );
    let mut conn = redis.clone();
    script
        .key(format!("{key}:fails"))
        .key(format!("{key}:wait"))
        .arg(backoff.window_secs)
        .arg(backoff.free)
        .arg(backoff.max_wait_secs)
        .invoke_async(&mut conn)
        .await
}

/// Forgets the failures on `key` (a success).
pub async fn backoff_reset(redis: &ConnectionManager, key: &str) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    redis::cmd("DEL")
        .arg(format!("{key}:fails"))
        .arg(format!("{key}:wait"))
        .query_async::<()>(&mut conn)
        .await
}

/// A reconnecting connection that connects on first use, with short timeouts, so a process
/// starts while Redis is down and a request waiting on it fails fast instead of hanging.
pub fn connect_lazy(url: &str) -> redis::RedisResult<ConnectionManager> {
    let client = redis::Client::open(url)?;
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(std::time::Duration::from_secs(1)))
        .set_response_timeout(Some(std::time::Duration::from_secs(1)))
        .set_number_of_retries(1);
    ConnectionManager::new_lazy_with_config(client, config)
}

/// Opens a reconnecting connection.
pub async fn connect(url: &str) -> redis::RedisResult<ConnectionManager> {
    let client = redis::Client::open(url)?;
    ConnectionManager::new(client).await
}
