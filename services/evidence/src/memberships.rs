//! Organization memberships, asked of accounts per call (the answer changes when a participant
//! joins, changes role or is removed, and a stale copy here would let a removed participant in).

use async_trait::async_trait;
use evidentia_common::grpc::{Caller, TracePropagation};
use evidentia_proto::accounts::v1::{
    GetOrganizationRequest, accounts_service_client::AccountsServiceClient,
};
use tonic::{Code, codegen::InterceptedService, transport::Channel};
use uuid::Uuid;

use crate::{
    domain::{Membership, Role},
    error::EvidenceError,
};

#[async_trait]
pub trait Memberships: Send + Sync {
    /// `None` when the caller belongs to no organization.
    async fn of(&self, caller: &Caller) -> Result<Option<Membership>, EvidenceError>;
}

/// Asks accounts' `GetOrganization` as the caller.
pub struct AccountsMemberships(
    pub AccountsServiceClient<InterceptedService<Channel, TracePropagation>>,
);

#[async_trait]
impl Memberships for AccountsMemberships {
    async fn of(&self, caller: &Caller) -> Result<Option<Membership>, EvidenceError> {
        match self
            .0
            .clone()
            .get_organization(caller.request(GetOrganizationRequest {}))
            .await
        {
            Ok(found) => {
                let found = found.into_inner();
                let id = |v: &str| Uuid::parse_str(v).map_err(anyhow::Error::from);
                Ok(Some(Membership {
                    organization_id: id(&found.id)?,
                    owner_id: id(&found.owner_id)?,
                    role: Role::stored(&found.role),
                }))
            }
            Err(status) if status.code() == Code::NotFound => Ok(None),
            Err(status) => Err(EvidenceError::Internal(anyhow::anyhow!(
                "accounts GetOrganization: {status}"
            ))),
        }
    }
}
