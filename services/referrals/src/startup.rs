//! Builds the referrals service from its configuration on an already-bound listener.

use evidentia_common::{
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
    const MIGRATIONS: &'static Migrator = &MIGRATIONS;
    type Config = Config;

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let mut infra = Infrastructure::start::<Self>(&config, &shutdown).await?;
        let consumers = infra
            .consumers()
            .on::<AccountCreated, _>("create-referral-code", CreateCodeOnSignUp)
            .on::<AccountPurged, _>("purge-account", PurgeOnAccountPurged);
        infra.consume(consumers);
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
