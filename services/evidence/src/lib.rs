//! The evidence service: folders, evidence items, uploads straight to S3 with integrity checks,
//! storage dates and per-user storage usage (every account gets its usage row at sign-up).

pub mod config;
pub mod contributions;
pub mod domain;
pub mod error;
pub mod folders;
pub mod geocode;
pub mod grpc;
pub mod holds;
pub mod items;
pub mod org_folders;
pub mod organizations;
pub mod sniff;
pub mod storage;
pub mod sweeper;
pub mod templates;
pub mod thumbnails;
pub mod usage;
pub mod verify;

use std::sync::Arc;

use evidentia_common::{
    config::ServiceConfig,
    consumer::Consumers,
    grpc as rpc,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    accounts::v1::accounts_service_client::AccountsServiceClient,
    events::v1::{AccountCreated, AccountPurged, ItemUploaded, StorageExtensionPaid},
    evidence::v1::evidence_service_server::EvidenceServiceServer,
};
use sqlx::{PgPool, migrate::Migrator};
use tokio_util::sync::CancellationToken;

pub use config::Config;

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

/// What every request handler can reach.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: PgPool,
    pub store: Arc<storage::MediaStore>,
    pub geocoder: Arc<dyn geocode::Geocoder>,
    pub memberships: Arc<dyn organizations::Memberships>,
}

pub struct EvidenceService;

impl Service for EvidenceService {
    const NAME: &'static str = "evidence";
    type Config = Config;

    fn config() -> anyhow::Result<Config> {
        Ok(Config::from_env()?)
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
        let store = Arc::new(storage::MediaStore::connect(&config.s3).await?);
        store.check_bucket().await?;
        let mut infra = Infrastructure::start(&config.service, &MIGRATIONS, &shutdown).await?;
        let consumers = Consumers::new("evidence", infra.pool.clone(), config.service.amqp.clone())
            .on::<AccountCreated, _>("open-storage-account", usage::OpenOnSignUp)
            .on::<StorageExtensionPaid, _>("extend-on-payment", folders::ExtendOnPayment)
            .on::<AccountPurged, _>(
                "purge-account",
                folders::PurgeOnAccountPurged {
                    store: store.clone(),
                },
            )
            .on::<ItemUploaded, _>(
                "verify-upload",
                verify::VerifyOnUpload {
                    store: store.clone(),
                },
            )
            .on::<ItemUploaded, _>(
                "make-thumbnail",
                thumbnails::ThumbnailOnUpload {
                    store: store.clone(),
                    posters: Arc::new(thumbnails::Ffmpeg {
                        program: config.media.ffmpeg.clone(),
                        timeout: std::time::Duration::from_secs(
                            config.media.ffmpeg_timeout_seconds,
                        ),
                    }),
                },
            );
        infra.consume(consumers, &shutdown);
        let config_accounts_url = config.accounts_url.clone();
        let config = Arc::new(config);
        let gazetteer: Arc<dyn geocode::Geocoder> = Arc::new(geocode::Gazetteer::default());
        let geocoder: Arc<dyn geocode::Geocoder> = match &config.geocoder {
            config::GeocoderConfig::Offline => gazetteer,
            config::GeocoderConfig::Nominatim {
                url,
                user_agent,
                timeout_ms,
            } => Arc::new(geocode::Nominatim::new(
                url,
                user_agent,
                std::time::Duration::from_millis(*timeout_ms),
                gazetteer,
            )?),
        };
        infra.tasks.spawn(sweeper::run(
            infra.pool.clone(),
            store.clone(),
            config.clone(),
            shutdown.clone(),
        ));
        let state = AppState {
            config,
            pool: infra.pool.clone(),
            store,
            geocoder,
            memberships: Arc::new(organizations::AccountsMemberships(
                AccountsServiceClient::with_interceptor(
                    rpc::channel(&config_accounts_url)?,
                    rpc::TracePropagation,
                ),
            )),
        };
        let health = infra.health_service(
            &["evidentia.evidence.v1.EvidenceService"],
            vec![state.store.clone()],
        );
        let router = rpc::server()
            .add_service(health)
            .add_service(EvidenceServiceServer::new(grpc::EvidenceApi { state }));
        infra.serve(router, listener, shutdown).await
    }
}
