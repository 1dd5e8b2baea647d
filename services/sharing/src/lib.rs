//! The sharing service: shares of folders and evidence, watermarked copies, chat and
//! futuregrams. It keeps its own directory of accounts (from `AccountCreated`) for the
//! watermark; the sharing features arrive with their issues.

pub mod directory;

use evidentia_common::{
    config::{ServiceConfig, env_or},
    consumer::Consumers,
    grpc,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    events::v1::{AccountCreated, AccountDeleted, AccountPurged, AccountRecovered},
    sharing::v1::sharing_service_server::SharingServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    /// Where recipients open shared copies (links in e-mails).
    pub public_base_url: String,
}

pub struct SharingService;

impl Service for SharingService {
    const NAME: &'static str = "sharing";
    type Config = Config;

    fn config() -> anyhow::Result<Config> {
        Ok(Config {
            service: ServiceConfig::from_env("sharing", 50054)?,
            public_base_url: env_or("PUBLIC_BASE_URL", "http://127.0.0.1:8080")?,
        })
    }

    fn common(config: &Config) -> &ServiceConfig {
        &config.service
    }

    fn migrations() -> &'static Migrator {
        &MIGRATIONS
    }

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let mut infra = Infrastructure::start(&config.service, &MIGRATIONS, &shutdown).await?;
        let consumers = Consumers::new("sharing", infra.pool.clone(), config.service.amqp.clone())
            .on::<AccountCreated, _>("record-account", directory::RecordOnSignUp)
            .on::<AccountDeleted, _>("pause-deleted-account", directory::FollowDeletion)
            .on::<AccountRecovered, _>("resume-recovered-account", directory::FollowDeletion)
            .on::<AccountPurged, _>("forget-purged-account", directory::FollowDeletion);
        infra.consume(consumers, &shutdown);
        let health = infra.health_service(&["evidentia.sharing.v1.SharingService"], Vec::new());
        let router = grpc::server()
            .add_service(health)
            .add_service(SharingServiceServer::new(directory::SharingApi {
                pool: infra.pool.clone(),
            }));
        infra.serve(router, listener, shutdown).await
    }
}
