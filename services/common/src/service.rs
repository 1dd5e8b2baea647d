//! The life of a service process: `<name>` serves, `<name> migrate` applies migrations and exits;
//! telemetry, configuration and shutdown are set up the same way for every service.

use std::future::Future;

use sqlx::{PgPool, migrate::Migrator};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use tonic::transport::server::Router;

use crate::{config::ServiceConfig, consumer::Consumers, db, grpc, outbox, shutdown, telemetry};

/// What a domain service tells the shared entry point about itself.
pub trait Service {
    const NAME: &'static str;
    type Config: Send + 'static;

    fn config() -> anyhow::Result<Self::Config>;
    fn common(config: &Self::Config) -> &ServiceConfig;
    fn migrations() -> &'static Migrator;
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
        let config = S::config()?;
        let common = S::common(&config);
        match std::env::args().nth(1).as_deref() {
            Some("migrate") => {
                db::migrate(&common.database_url, S::migrations()).await?;
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

/// The database pool and background tasks every service has: migrations applied, the outbox
/// relay running.
#[derive(Debug)]
pub struct Infrastructure {
    pub pool: PgPool,
    pub tasks: JoinSet<()>,
}

impl Infrastructure {
    pub async fn start(
        config: &ServiceConfig,
        migrations: &Migrator,
        shutdown: &CancellationToken,
    ) -> anyhow::Result<Self> {
        let pool = db::connect_and_migrate(&config.database_url, migrations).await?;
        let mut tasks = JoinSet::new();
        tasks.spawn(outbox::run_relay(
            pool.clone(),
            config.amqp.clone(),
            shutdown.clone(),
        ));
        Ok(Self { pool, tasks })
    }

    /// Runs the service's event consumers in the background until `shutdown`.
    pub fn consume(&mut self, consumers: Consumers, shutdown: &CancellationToken) {
        self.tasks.spawn(consumers.run(shutdown.clone()));
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
pub async fn test_config(name: &'static str) -> ServiceConfig {
    crate::tls::install_crypto_provider();
    ServiceConfig {
        service_name: name,
        database_url: crate::testing::database_url(name).await,
        grpc_listen_addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        amqp: crate::testing::amqp_config(),
        redis_url: std::env::var("REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned()),
    }
}
