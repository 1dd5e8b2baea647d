//! Test helpers (feature `testing`): a database and an exchange of the test's own on the real
//! components that `./dev infra` starts, and polling with a deadline.

use std::{future::Future, time::Duration};

use secrecy::{ExposeSecret, SecretString};
use sqlx::{Connection, PgConnection};

use crate::config::AmqpConfig;

const ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// A fresh database name for `service`; older test databases (over an hour) are dropped.
pub async fn database_url(service: &str) -> SecretString {
    let admin = std::env::var("TEST_DATABASE_ADMIN_URL").unwrap_or_else(|_| ADMIN_URL.to_owned());
    let now = chrono::Utc::now().timestamp();
    let name = format!("test_{service}_{now}_{}", uuid::Uuid::new_v4().simple());
    if let Ok(mut conn) = PgConnection::connect(&admin).await {
        let stale: Vec<String> =
            sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE 'test\\_%'")
                .fetch_all(&mut conn)
                .await
                .unwrap_or_default();
        for db in stale {
            let created = db.split('_').nth(2).and_then(|t| t.parse::<i64>().ok());
            if created.is_some_and(|t| now - t > 3600) {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"))
                    .execute(&mut conn)
                    .await;
            }
        }
    }
    let base = admin
        .rsplit_once('/')
        .map_or(admin.as_str(), |(base, _)| base);
    SecretString::from(format!("{base}/{name}"))
}

/// An exchange of the test's own, with queues that vanish a minute after the test.
pub fn amqp_config() -> AmqpConfig {
    let mut config = AmqpConfig::from_env().unwrap_or_else(|e| panic!("AMQP configuration: {e}"));
    config.exchange = format!("test.{}", uuid::Uuid::new_v4().simple());
    config.queue_expires_ms = Some(60_000);
    config.retry_delay_ms = 100;
    config.max_attempts = 3;
    config.transient = true;
    config
}

/// Polls `check` until it returns `Some`, or panics with `what` after `timeout`.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens a connection to a test database (for assertions on rows).
pub async fn connect(url: &SecretString) -> PgConnection {
    PgConnection::connect(url.expose_secret())
        .await
        .unwrap_or_else(|e| panic!("connect to test database: {e}"))
}
