//! Fixed-window rate limits kept in Redis, shared by every replica of a service.

use redis::aio::ConnectionManager;

/// Counts one hit on `key` in a window of `window_secs`; true when the hit is within `limit`.
pub async fn hit(
    redis: &ConnectionManager,
    key: &str,
    limit: u32,
    window_secs: u64,
) -> redis::RedisResult<bool> {
    let script = redis::Script::new(
        r"local n = redis.call('INCR', KEYS[1])
          if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
          return n",
    );
    let mut conn = redis.clone();
    let count: u64 = script
        .key(key)
        .arg(window_secs)
        .invoke_async(&mut conn)
        .await?;
    Ok(count <= u64::from(limit))
}

/// Forgets the hits on `key` (e.g. after a successful sign-in).
pub async fn reset(redis: &ConnectionManager, key: &str) -> redis::RedisResult<()> {
    let mut conn = redis.clone();
    redis::cmd("DEL")
        .arg(key)
        .query_async::<()>(&mut conn)
        .await
}

/// Opens a reconnecting connection.
pub async fn connect(url: &str) -> redis::RedisResult<ConnectionManager> {
    let client = redis::Client::open(url)?;
    ConnectionManager::new(client).await
}
