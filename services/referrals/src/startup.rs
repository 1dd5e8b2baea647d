//! Builds the referrals service from its configuration on an already-bound listener.

use evidentia_common::{
    config::ServiceConfig,
    consumer::Consumers,
    grpc,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    events::v1::{AccountCreated, AccountPurged},
    referrals::v1::referrals_service_server::ReferralsServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

use crate::{
    config::Config,
    events::{CreateCodeOnSignUp, PurgeOnAccountPurged},
    grpc::ReferralsApi,
    state::ReferralsState,
};

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

pub struct ReferralsService;

impl Service for ReferralsService {
    const NAME: &'static str = "referrals";
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
        let mut infra = Infrastructure::start(&config.service, &MIGRATIONS, &shutdown).await?;
        let consumers =
            Consumers::new("referrals", infra.pool.clone(), config.service.amqp.clone())
                .on::<AccountCreated, _>("create-referral-code", CreateCodeOnSignUp)
                .on::<AccountPurged, _>("purge-account", PurgeOnAccountPurged);
        infra.consume(consumers, &shutdown);
        let health = infra.health_service(&["evidentia.referrals.v1.ReferralsService"], Vec::new());
        let router = grpc::server()
            .add_service(health)
            .add_service(ReferralsServiceServer::new(ReferralsApi {
                state: ReferralsState {
                    pool: infra.pool.clone(),
                },
            }));
        infra.serve(router, listener, shutdown).await
    }
}
