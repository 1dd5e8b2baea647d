//! Builds the payments service from its configuration on an already-bound listener.

use std::sync::Arc;

use evidentia_common::{
    grpc, profile_cache, ratelimit,
    service::{Infrastructure, Service},
};
use evidentia_proto::{
    events::v1::{
        AccountCreated, AccountPurged, PromoCodeRedeemed, ReferralRecorded, StorageExtensionRefused,
    },
    payments::v1::payments_service_server::PaymentsServiceServer,
};
use sqlx::migrate::Migrator;
use tokio_util::sync::CancellationToken;

use crate::{
    config::Config,
    events::{
        CreateCustomerOnSignUp, CreditPromoCode, PurgeOnAccountPurged, RecordReferral,
        RefundRefusedExtension,
    },
    grpc::PaymentsApi,
    state::PaymentsState,
    stripe::{Stripe, StripeApi},
};

pub static MIGRATIONS: Migrator = sqlx::migrate!("./migrations");

pub struct PaymentsService;

impl Service for PaymentsService {
    const NAME: &'static str = "payments";
    const MIGRATIONS: &'static Migrator = &MIGRATIONS;
    type Config = Config;

    async fn run(
        config: Config,
        listener: tokio::net::TcpListener,
        shutdown: CancellationToken,
    ) -> anyhow::Result<()> {
        let stripe: Arc<dyn Stripe> = Arc::new(StripeApi::new(&config)?);
        let mut infra = Infrastructure::start::<Self>(&config, &shutdown).await?;
        let consumers = infra
            .consumers()
            .on::<AccountCreated, _>(
                "create-customer",
                CreateCustomerOnSignUp {
                    stripe: stripe.clone(),
                },
            )
            .on::<PromoCodeRedeemed, _>("credit-promo-code", CreditPromoCode)
            .on::<ReferralRecorded, _>(
                "record-referral-reward",
                RecordReferral {
                    pricing: config.pricing.clone(),
                },
            )
            .on::<StorageExtensionRefused, _>("refund-refused-extension", RefundRefusedExtension)
            .on::<AccountPurged, _>(
                "purge-account",
                PurgeOnAccountPurged {
                    stripe: stripe.clone(),
                },
            );
        infra.consume(consumers);
        // Redis is only where the gateway keeps profiles: payments tells it which went stale.
        let redis = ratelimit::connect_lazy(&config.service.redis_url)?;
        infra.tasks.spawn(profile_cache::keep_fresh(
            infra.pool.clone(),
            redis,
            shutdown.clone(),
        ));
        let health = infra.health_service(&["evidentia.payments.v1.PaymentsService"], Vec::new());
        let router = grpc::server()
            .add_service(health)
            .add_service(PaymentsServiceServer::new(PaymentsApi {
                state: PaymentsState {
                    pool: infra.pool.clone(),
                    stripe,
                    pricing: config.pricing.clone(),
                    webhook_secret: config.stripe_webhook_secret.clone(),
                },
            }));
        infra.serve(router, listener, shutdown).await
    }
}
