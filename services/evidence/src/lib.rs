//! The evidence service: folders, evidence items, uploads straight to S3, storage dates and
//! rental captures. Every account gets its storage usage at sign-up (`AccountCreated`); the media
//! bucket is checked at start.

pub mod storage;
pub mod usage;

use evidentia_common::{
    config::{ServiceConfig, env_or, secret_or},
    consumer::Consumers,
    grpc,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    events::v1::AccountCreated, evidence::v1::evidence_service_server::EvidenceServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub s3: storage::S3Config,
}

pub struct EvidenceService;

impl Service for EvidenceService {
    const NAME: &'static str = "evidence";
    type Config = Config;

    fn config() -> anyhow::Result<Config> {
        Ok(Config {
            service: ServiceConfig::from_env("evidence", 50053)?,
            s3: storage::S3Config {
                endpoint: env_or("S3_ENDPOINT", "http://127.0.0.1:8333")?,
                region: env_or("S3_REGION", "us-east-1")?,
                bucket: env_or("S3_BUCKET", "evidentia-media")?,
                access_key_id: env_or("S3_ACCESS_KEY_ID", "evidentia")?,
                secret_access_key: secret_or("S3_SECRET_ACCESS_KEY", "evidentia-local-secret")?,
            },
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
        let store = storage::MediaStore::connect(&config.s3).await?;
        store.check_bucket().await?;
        let mut infra = Infrastructure::start(&config.service, &MIGRATIONS, &shutdown).await?;
        let consumers = Consumers::new("evidence", infra.pool.clone(), config.service.amqp.clone())
            .on::<AccountCreated, _>("open-storage-account", usage::OpenOnSignUp);
        infra.consume(consumers, &shutdown);
        let router = grpc::server()
            .add_service(grpc::health_service(&["evidentia.evidence.v1.EvidenceService"]).await)
            .add_service(EvidenceServiceServer::new(usage::EvidenceApi {
                pool: infra.pool.clone(),
            }));
        infra.serve(router, listener, shutdown).await
    }
}
