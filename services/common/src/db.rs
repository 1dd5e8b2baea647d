//! PostgreSQL: the service's own database, created if missing, and its migrations (the
//! service's own plus the shared outbox and processed-event tables of `services/common`).

use std::{borrow::Cow, str::FromStr, time::Duration};

use secrecy::{ExposeSecret, SecretString};
use sqlx::{
    ConnectOptions, Connection, PgConnection, PgPool,
    migrate::Migrator,
    postgres::{PgConnectOptions, PgPoolOptions},
};

static COMMON_MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

/// The service's migrator merged with the shared tables' migrations, ordered by version.
pub fn migrator(service: &Migrator) -> Migrator {
    let mut migrations: Vec<_> = COMMON_MIGRATIONS
        .migrations
        .iter()
        .chain(service.migrations.iter())
        .cloned()
        .collect();
    migrations.sort_by_key(|m| m.version);
    Migrator {
        migrations: Cow::Owned(migrations),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    }
}

/// Creates the database named in `url` when it does not exist yet.
pub async fn create_database_if_missing(url: &SecretString) -> anyhow::Result<()> {
    let options = PgConnectOptions::from_str(url.expose_secret())?;
    let Some(name) = options.get_database().map(str::to_owned) else {
        anyhow::bail!("DATABASE_URL names no database");
    };
    let mut admin = options.database("postgres").connect().await?;
    let exists = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS "exists!""#,
        &name
    )
    .fetch_one(&mut admin)
    .await?;
    if !exists {
        // Two instances may race here; the loser sees duplicate_database, which is fine. A
        // database's name cannot be a bind parameter: it is quoted as an identifier instead.
        let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', "\"\""));
        if let Err(err) = sqlx::query(&sql).execute(&mut admin).await {
            let duplicate = err
                .as_database_error()
                .and_then(|e| e.code())
                .is_some_and(|code| code == "42P04" || code == "23505");
            if !duplicate {
                return Err(err.into());
            }
        }
        tracing::info!(database = %name, "created database");
    }
    admin.close().await?;
    Ok(())
}

/// Creates the database if needed and applies every migration.
pub async fn migrate(url: &SecretString, service: &Migrator) -> anyhow::Result<()> {
    create_database_if_missing(url).await?;
    let mut conn = PgConnection::connect(url.expose_secret()).await?;
    // `run(&mut conn)` makes the future fail "Acquire is not general enough" when spawned.
    migrator(service).run_direct(&mut conn).await?;
    conn.close().await?;
    Ok(())
}

/// How long a pooled connection may sit idle before it is checked on its next use.
const IDLE_BEFORE_PING: Duration = Duration::from_secs(5);

/// Connections of a pool when nothing says otherwise (`DATABASE_MAX_CONNECTIONS`'s default).
pub const DEFAULT_POOL_SIZE: u32 = 10;

/// Creates the database if needed, applies migrations and opens a pool of [`DEFAULT_POOL_SIZE`]
/// connections (an operator's command, a test).
pub async fn connect_and_migrate(url: &SecretString, service: &Migrator) -> anyhow::Result<PgPool> {
    connect_and_migrate_with(url, DEFAULT_POOL_SIZE, service).await
}

/// Creates the database if needed, applies migrations and opens a pool of at most
/// `max_connections`.
pub async fn connect_and_migrate_with(
    url: &SecretString,
    max_connections: u32,
    service: &Migrator,
) -> anyhow::Result<PgPool> {
    migrate(url, service).await?;
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        // A connection is checked with a round trip (sqlx's default did it at every acquire: two
        // of the five round trips of GET /api/accounts/me/) only when it sat idle for a while,
        // which is when PostgreSQL may have restarted or failed over meanwhile. A connection that
        // broke while in use fails its query, and the pool then drops it.
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= IDLE_BEFORE_PING {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
        .acquire_timeout(Duration::from_secs(5))
        .connect(url.expose_secret())
        .await?;
    Ok(pool)
}

/// What an operator's command of a service binary needs (`referrals promo-code ...`, `payments
/// referral-rewards ...`): `work` on a fresh single-threaded runtime with a pool on `url`, the
/// migrations applied first.
pub fn run_with_pool<T, F, Fut>(
    url: &SecretString,
    migrations: &Migrator,
    work: F,
) -> anyhow::Result<T>
where
    F: FnOnce(PgPool) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async { work(connect_and_migrate(url, migrations).await?).await })
}
