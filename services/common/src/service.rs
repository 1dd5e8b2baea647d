//! The life of a service process: `<name>` serves, `<name> migrate` applies migrations and exits;
//! telemetry, configuration and shutdown are set up the same way for every service.

use std::{
    future::Future,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use redis::aio::ConnectionManager;
use tonic_health::{
    ServingStatus,
    pb::health_server::{Health, HealthServer},
};

use sqlx::{PgPool, migrate::Migrator};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::grpc::Router;

use crate::{
    config::{AmqpConfig, Configuration},
    consumer::Consumers,
    db, grpc, outbox, shutdown, telemetry,
};

/// What a domain service tells the shared entry point about itself.
pub trait Service {
    const NAME: &'static str;
    /// Its database's migrations (`sqlx::migrate!("./migrations")`).
    const MIGRATIONS: &'static Migrator;
    type Config: Configuration;

    /// Builds the whole service on an already-bound listener and runs it until `shutdown`.
    fn run(
        config: Self::Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
}

/// The `main` of every domain service.
pub fn main<S: Service>() -> anyhow::Result<()> {
    crate::tls::install_crypto_provider();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let _telemetry = telemetry::init(S::NAME)?;
        let config = S::Config::from_env()?;
        let common = config.service();
        match std::env::args().nth(1).as_deref() {
            Some("migrate") => {
                db::migrate(&common.database_url, S::MIGRATIONS).await?;
                tracing::info!(service = S::NAME, "migrations applied");
                Ok(())
            }
            None | Some("serve") => {
                let listener = crate::grpc::bind(common.grpc_listen_addr).await?;
                S::run(config, listener, shutdown::on_signal()).await
            }
            Some(other) => anyhow::bail!(
                "unknown command {other:?}; usage: {} [serve|migrate]",
                S::NAME
            ),
        }
    })
}

/// How often readiness looks at the dependencies.
const READINESS_INTERVAL: Duration = Duration::from_secs(2);
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Something beyond its database and broker that a service cannot serve without (Redis, the S3
/// store), asked at every readiness check.
pub trait Probe: Send + Sync {
    /// Named in the log when it fails.
    fn name(&self) -> &'static str;
    /// True while it answers.
    fn ready(&self) -> Pin<Box<dyn Future<Output = bool> + Send + '_>>;
}

/// Redis answers `PING`.
impl Probe for ConnectionManager {
    fn name(&self) -> &'static str {
        "redis"
    }

    fn ready(&self) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        let mut conn = self.clone();
        Box::pin(async move {
            redis::cmd("PING")
                .query_async::<String>(&mut conn)
                .await
                .is_ok()
        })
    }
}

struct Dependencies {
    pool: PgPool,
    broker_up: Arc<AtomicBool>,
    probes: Vec<Arc<dyn Probe>>,
}

impl Dependencies {
    async fn failing(&self) -> Vec<&'static str> {
        let mut failing = Vec::new();
        let database = tokio::time::timeout(
            PROBE_TIMEOUT,
            sqlx::query!("SELECT 1 AS one").fetch_one(&self.pool),
        )
        .await;
        if !matches!(database, Ok(Ok(_))) {
            failing.push("postgresql");
        }
        if !self.broker_up.load(Ordering::Relaxed) {
            failing.push("rabbitmq");
        }
        for probe in &self.probes {
            let ready = tokio::time::timeout(PROBE_TIMEOUT, probe.ready()).await;
            if !matches!(ready, Ok(true)) {
                failing.push(probe.name());
            }
        }
        failing
    }
}

/// The database pool and background tasks every service has: migrations applied, the outbox
/// relay running.
#[derive(Debug)]
pub struct Infrastructure {
    pub pool: PgPool,
    pub tasks: JoinSet<()>,
    /// Whether the outbox relay holds a live broker connection.
    broker_up: Arc<AtomicBool>,
    shutdown: CancellationToken,
    name: &'static str,
    amqp: AmqpConfig,
}

impl Infrastructure {
    /// Connects service `S` to its database (migrated) and starts its outbox relay.
    pub async fn start<S: Service>(
        config: &S::Config,
        shutdown: &CancellationToken,
    ) -> anyhow::Result<Self> {
        let config = config.service();
        let pool = db::connect_and_migrate_with(
            &config.database_url,
            config.database_max_connections,
            S::MIGRATIONS,
        )
        .await?;
        let mut tasks = JoinSet::new();
        let broker_up = Arc::new(AtomicBool::new(false));
        tasks.spawn(outbox::run_relay(
            pool.clone(),
            config.amqp.clone(),
            shutdown.clone(),
            broker_up.clone(),
        ));
        Ok(Self {
            pool,
            tasks,
            broker_up,
            shutdown: shutdown.clone(),
            name: S::NAME,
            amqp: config.amqp.clone(),
        })
    }

    /// The service's event consumers, to register handlers on and pass to [`Self::consume`].
    pub fn consumers(&self) -> Consumers {
        Consumers::new(self.name, self.pool.clone(), self.amqp.clone())
    }

    /// The standard gRPC health service for `names` (and the whole server), SERVING only while
    /// what the service depends on answers: its database, the broker, and its `probes`.
    /// Readiness, not liveness: a process that is up but cannot reach these cannot serve.
    pub fn health_service(
        &mut self,
        names: &[&str],
        probes: Vec<Arc<dyn Probe>>,
    ) -> HealthServer<impl Health> {
        let (reporter, service) = tonic_health::server::health_reporter();
        let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let dependencies = Dependencies {
            pool: self.pool.clone(),
            broker_up: self.broker_up.clone(),
            probes,
        };
        let shutdown = self.shutdown.clone();
        self.tasks.spawn(async move {
            let mut last = None;
            loop {
                let failing = dependencies.failing().await;
                let status = if failing.is_empty() {
                    ServingStatus::Serving
                } else {
                    ServingStatus::NotServing
                };
                if last != Some(status) {
                    if failing.is_empty() {
                        tracing::info!("dependencies reachable: serving");
                    } else {
                        tracing::warn!(?failing, "dependencies unreachable: not serving");
                    }
                    for name in names.iter().map(String::as_str).chain([""]) {
                        reporter.set_service_status(name, status).await;
                    }
                    last = Some(status);
                }
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    () = tokio::time::sleep(READINESS_INTERVAL) => {}
                }
            }
        });
        service
    }

    /// Runs the service's event consumers in the background until the service stops.
    pub fn consume(&mut self, consumers: Consumers) {
        self.tasks.spawn(consumers.run(self.shutdown.clone()));
    }

    /// Serves `router` on `listener` until `shutdown`, then waits for the background tasks.
    pub async fn serve(
        mut self,
        router: Router,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        grpc::serve(router, listener, shutdown).await?;
        while self.tasks.join_next().await.is_some() {}
        self.pool.close().await;
        Ok(())
    }
}

/// The defaults of a test: the service's own database and exchange, gRPC on a free port.
#[cfg(feature = "testing")]
pub async fn test_config(name: &'static str) -> crate::config::ServiceConfig {
    crate::tls::install_crypto_provider();
    crate::config::ServiceConfig {
        service_name: name,
        database_url: crate::testing::database_url(name).await,
        database_max_connections: crate::db::DEFAULT_POOL_SIZE,
        grpc_listen_addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        amqp: crate::testing::amqp_config(),
        redis_url: crate::testing::redis_url(),
    }
}
