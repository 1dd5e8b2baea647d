//! Builds the accounts service from its configuration on an already-bound listener: its state,
//! the purger and the gRPC server.

use std::sync::Arc;

use evidentia_common::{
    grpc, profile_cache, ratelimit,
    service::{Infrastructure, Service},
};
use evidentia_proto::accounts::v1::accounts_service_server::AccountsServiceServer;
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

use crate::{
    app::deletion,
    config::Config,
    grpc::AccountsApi,
    mailer::{Mailer, SmtpMailer},
    sms::{self, SmsSender},
    state::AppState,
};

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

pub struct AccountsService;

impl Service for AccountsService {
    const NAME: &'static str = "accounts";
    const MIGRATIONS: &'static Migrator = &MIGRATIONS;
    type Config = Config;

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let mailer = Arc::new(SmtpMailer::new(&config.smtp_url, &config.mail_from)?);
        let sms = sms::from_config(&config.sms)?;
        run_with(config, mailer, sms, listener, shutdown).await
    }
}

/// Runs the service with the given mailer and SMS sender until `shutdown`.
pub async fn run_with(
    config: Config,
    mailer: Arc<dyn Mailer>,
    sms: Arc<dyn SmsSender>,
    listener: tokio::net::TcpListener,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let mut infra = Infrastructure::start::<AccountsService>(&config, &shutdown).await?;
    infra.tasks.spawn(deletion::run_purger(
        infra.pool.clone(),
        std::time::Duration::from_secs(config.purge_interval_seconds),
        shutdown.clone(),
    ));
    let state = AppState {
        redis: ratelimit::connect(&config.service.redis_url).await?,
        config: Arc::new(config),
        pool: infra.pool.clone(),
        mailer,
        sms,
    };
    infra.tasks.spawn(profile_cache::keep_fresh(
        infra.pool.clone(),
        state.redis.clone(),
        shutdown.clone(),
    ));
    let health = infra.health_service(
        &["evidentia.accounts.v1.AccountsService"],
        vec![Arc::new(state.redis.clone())],
    );
    let router = grpc::server()
        .add_service(health)
        .add_service(AccountsServiceServer::new(AccountsApi::new(state)));
    infra.serve(router, listener, shutdown).await
}
