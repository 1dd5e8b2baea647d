//! gRPC clients of the domain services, each carrying the caller's trace context.

use evidentia_common::grpc::{TracePropagation, channel};
use evidentia_proto::{
    accounts::v1::accounts_service_client::AccountsServiceClient,
    evidence::v1::evidence_service_client::EvidenceServiceClient,
    payments::v1::payments_service_client::PaymentsServiceClient,
    referrals::v1::referrals_service_client::ReferralsServiceClient,
    sharing::v1::sharing_service_client::SharingServiceClient,
};
use tonic::{service::interceptor::InterceptedService, transport::Channel};

use crate::config::Config;

pub type Traced = InterceptedService<Channel, TracePropagation>;

#[derive(Clone)]
pub struct Clients {
    pub accounts: AccountsServiceClient<Traced>,
    pub evidence: EvidenceServiceClient<Traced>,
    pub payments: PaymentsServiceClient<Traced>,
    pub referrals: ReferralsServiceClient<Traced>,
    pub sharing: SharingServiceClient<Traced>,
    /// Every service by name, for the health check.
    pub all: Vec<(&'static str, Channel)>,
}

impl Clients {
    pub fn connect(config: &Config) -> anyhow::Result<Self> {
        let accounts = channel(&config.accounts_url)?;
        let payments = channel(&config.payments_url)?;
        let referrals = channel(&config.referrals_url)?;
        let evidence = channel(&config.evidence_url)?;
        let sharing = channel(&config.sharing_url)?;
        Ok(Self {
            evidence: EvidenceServiceClient::with_interceptor(evidence.clone(), TracePropagation),
            accounts: AccountsServiceClient::with_interceptor(accounts.clone(), TracePropagation),
            payments: PaymentsServiceClient::with_interceptor(payments.clone(), TracePropagation),
            referrals: ReferralsServiceClient::with_interceptor(
                referrals.clone(),
                TracePropagation,
            ),
            sharing: SharingServiceClient::with_interceptor(sharing.clone(), TracePropagation),
            all: vec![
                ("accounts", accounts),
                ("payments", payments),
                ("evidence", evidence),
                ("sharing", sharing),
                ("referrals", referrals),
            ],
        })
    }
}
