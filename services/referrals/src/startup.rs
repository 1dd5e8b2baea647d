//! Builds the referrals service from its configuration on an already-bound listener.

use std::sync::Arc;

use evidentia_common::{
    grpc,
    mailer::SmtpMailer,
    ratelimit,
    service::{Infrastructure, Service},
    sms,
};
use evidentia_proto::{
    events::v1::{AccountCreated, AccountDeleted, AccountPurged, ReferralRewardSettled},
    referrals::v1::referrals_service_server::ReferralsServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

use crate::{
    config::Config,
    events::{
        ForgetInvitationsOnDeletion, PurgeOnAccountPurged, RecordOnSignUp, RecordRewardOutcome,
    },
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
        let redis = ratelimit::connect_lazy(&config.service.redis_url)?;
        let mut infra = Infrastructure::start::<Self>(&config, &shutdown).await?;
        let consumers = infra
            .consumers()
            // The queue keeps its first name: a renamed queue would leave the old one bound to
            // the exchange, filling up in every deployment.
            .on::<AccountCreated, _>("create-referral-code", RecordOnSignUp)
            .on::<ReferralRewardSettled, _>("record-reward-outcome", RecordRewardOutcome)
            .on::<AccountDeleted, _>("forget-invitations", ForgetInvitationsOnDeletion)
            .on::<AccountPurged, _>("purge-account", PurgeOnAccountPurged);
        infra.consume(consumers);
        let health = infra.health_service(
            &["evidentia.referrals.v1.ReferralsService"],
            vec![Arc::new(redis.clone())],
        );
        let router = grpc::server()
            .add_service(health)
            .add_service(ReferralsServiceServer::new(ReferralsApi {
                state: ReferralsState {
                    pool: infra.pool.clone(),
                    redis,
                    mailer: Arc::new(SmtpMailer::new(&config.smtp_url, &config.mail_from)?),
                    sms: sms::from_config(&config.sms)?,
                    limits: config.limits.clone(),
                    public_base_url: config.public_base_url.clone(),
                },
            }));
        infra.serve(router, listener, shutdown).await
    }
}
