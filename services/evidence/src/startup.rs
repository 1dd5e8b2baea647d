//! Builds the evidence service from a configuration and an already-bound listener (tests bind
//! port 0): its state, consumers, sweeper and gRPC server.

use std::{sync::Arc, time::Duration};

use evidentia_common::{
    grpc as rpc,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    accounts::v1::accounts_service_client::AccountsServiceClient,
    events::v1::{AccountCreated, AccountPurged, ItemUploaded, StorageExtensionPaid},
    evidence::v1::evidence_service_server::EvidenceServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

use crate::{
    app::{
        make_thumbnail::ThumbnailOnUpload, purge_account::PurgeOnAccountPurged,
        storage_dates::ExtendOnPayment, sweeper, timestamp_receipts, usage::OpenOnSignUp,
        verify::VerifyOnUpload,
    },
    config::{Config, GeocoderConfig},
    geocode::{Gazetteer, Geocoder, Nominatim},
    grpc::EvidenceApi,
    memberships::AccountsMemberships,
    state::AppState,
    storage::MediaStore,
    thumbnails::Ffmpeg,
};

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

pub struct EvidenceService;

impl Service for EvidenceService {
    const NAME: &'static str = "evidence";
    const MIGRATIONS: &'static Migrator = &MIGRATIONS;
    type Config = Config;

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let store = Arc::new(MediaStore::connect(&config.s3).await?);
        store.check_bucket().await?;
        let mut infra = Infrastructure::start::<Self>(&config, &shutdown).await?;
        let consumers = infra
            .consumers()
            .on::<AccountCreated, _>("open-storage-account", OpenOnSignUp)
            .on::<StorageExtensionPaid, _>("extend-on-payment", ExtendOnPayment)
            .on::<AccountPurged, _>(
                "purge-account",
                PurgeOnAccountPurged {
                    store: store.clone(),
                },
            )
            .on::<ItemUploaded, _>(
                "verify-upload",
                VerifyOnUpload {
                    store: store.clone(),
                    receipts: config.receipts.clone(),
                },
            )
            .on::<ItemUploaded, _>(
                "make-thumbnail",
                ThumbnailOnUpload {
                    store: store.clone(),
                    posters: Arc::new(Ffmpeg {
                        program: config.media.ffmpeg.clone(),
                        timeout: Duration::from_secs(config.media.ffmpeg_timeout_seconds),
                    }),
                },
            );
        infra.consume(consumers);
        let gazetteer: Arc<dyn Geocoder> = Arc::new(Gazetteer::default());
        let geocoder: Arc<dyn Geocoder> = match &config.geocoder {
            GeocoderConfig::Offline => gazetteer,
            GeocoderConfig::Nominatim {
                url,
                user_agent,
                timeout_ms,
            } => Arc::new(Nominatim::new(
                url,
                user_agent,
                Duration::from_millis(*timeout_ms),
                gazetteer,
            )?),
        };
        let memberships = Arc::new(AccountsMemberships(
            AccountsServiceClient::with_interceptor(
                rpc::channel(&config.accounts_url)?,
                rpc::TracePropagation,
            ),
        ));
        let config = Arc::new(config);
        if let Some(tsa) = config.timestamps.clone() {
            infra.tasks.spawn(timestamp_receipts::run(
                infra.pool.clone(),
                tsa,
                Duration::from_secs(config.timestamp_interval_seconds),
                shutdown.clone(),
            ));
        }
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
            memberships,
        };
        let health = infra.health_service(
            &["evidentia.evidence.v1.EvidenceService"],
            vec![state.store.clone()],
        );
        let router = rpc::server()
            .add_service(health)
            .add_service(EvidenceServiceServer::new(EvidenceApi { state }));
        infra.serve(router, listener, shutdown).await
    }
}
