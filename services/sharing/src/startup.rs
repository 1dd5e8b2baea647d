//! Builds the sharing service from a configuration and an already-bound listener (tests bind
//! port 0): its state, consumers, background workers and gRPC server.

use std::sync::Arc;

use evidentia_common::{
    grpc,
    mailer::SmtpMailer,
    ratelimit,
    service::{Infrastructure, Service},
    sms,
};
use evidentia_proto::{
    events::v1::{AccountCreated, AccountDeleted, AccountPurged, AccountRecovered, ItemVerified},
    evidence::v1::evidence_service_client::EvidenceServiceClient,
    payments::v1::payments_service_client::PaymentsServiceClient,
    sharing::v1::sharing_service_server::SharingServiceServer,
};
use sqlx::migrate::Migrator;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::{
    app::{
        contribute, custody, links::Links, notify_chats, purge, release_futuregrams, render_copies,
        send_links,
    },
    config::Config,
    directory,
    grpc::SharingApi,
    outbound::{EvidenceGrpc, Messengers, PaymentsGrpc, S3Copies},
    state::AppState,
};

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

pub struct SharingService;

impl Service for SharingService {
    const NAME: &'static str = "sharing";
    const MIGRATIONS: &'static Migrator = &MIGRATIONS;
    type Config = Config;

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let mut infra = Infrastructure::start::<Self>(&config, &shutdown).await?;
        let redis = ratelimit::connect_lazy(&config.service.redis_url)?;
        std::fs::create_dir_all(&config.settings.work_dir)?;
        let state = AppState {
            pool: infra.pool.clone(),
            redis: redis.clone(),
            evidence: Arc::new(EvidenceGrpc(EvidenceServiceClient::new(grpc::channel(
                &config.evidence_url,
            )?))),
            organization_folders: Arc::new(EvidenceGrpc(EvidenceServiceClient::new(
                grpc::channel(&config.evidence_url)?,
            ))),
            payments: Arc::new(PaymentsGrpc(PaymentsServiceClient::new(grpc::channel(
                &config.payments_url,
            )?))),
            copies: Arc::new(S3Copies::new(&config.s3, config.presign_ttl)),
            messengers: Messengers {
                mailer: Arc::new(SmtpMailer::new(&config.smtp_url, &config.mail_from)?),
                sms: sms::from_config(&config.sms)?,
            },
            links: Links::new(config.link_secret.clone(), &config.public_base_url),
            keys: config.keys.clone(),
            provenance: config.provenance.clone(),
            settings: Arc::new(config.settings.clone()),
            work: Arc::new(Notify::new()),
        };
        let consumers = infra
            .consumers()
            .on::<AccountCreated, _>("record-account", directory::RecordOnSignUp)
            .on::<AccountDeleted, _>("pause-deleted-account", directory::FollowDeletion)
            .on::<AccountRecovered, _>("resume-recovered-account", directory::FollowDeletion)
            .on::<AccountPurged, _>("forget-purged-account", directory::FollowDeletion)
            .on::<ItemVerified, _>(
                "receipt-for-contribution",
                contribute::ReceiptOnVerified {
                    folders: state.organization_folders.clone(),
                    messengers: state.messengers.clone(),
                },
            )
            .on::<AccountPurged, _>(
                "forget-purged-owner",
                purge::ForgetOwner {
                    copies: state.copies.clone(),
                },
            );
        infra.consume(consumers);
        tokio::spawn(render_copies::run(state.clone(), shutdown.clone()));
        tokio::spawn(send_links::run(state.clone(), shutdown.clone()));
        tokio::spawn(notify_chats::run(state.clone(), shutdown.clone()));
        tokio::spawn(release_futuregrams::run(state.clone(), shutdown.clone()));
        tokio::spawn(custody::run_head_signer(
            state.pool.clone(),
            state.keys.clone(),
            state.settings.custody_head_every,
            shutdown.clone(),
        ));
        let health = infra.health_service(
            &["evidentia.sharing.v1.SharingService"],
            vec![Arc::new(redis)],
        );
        let router = grpc::server()
            .add_service(health)
            .add_service(SharingServiceServer::new(SharingApi { state }));
        infra.serve(router, listener, shutdown).await
    }
}
