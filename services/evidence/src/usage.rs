//! Per-user storage usage: every account has a row from sign-up on.

use async_trait::async_trait;
use evidentia_common::{
    consumer::{EventMeta, Handler},
    errors::internal,
    grpc::Caller,
};
use evidentia_proto::{
    events::v1::AccountCreated,
    evidence::v1::{self as pb, evidence_service_server::EvidenceService as EvidenceRpc},
};
use sqlx::{PgConnection, PgPool};
use tonic::{Request, Response, Status};
use uuid::Uuid;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Usage {
    pub used_bytes: i64,
    pub file_count: i64,
    pub folder_count: i64,
}

pub async fn open_account(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO storage_usage (user_id) VALUES ($1) ON CONFLICT DO NOTHING")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A user without a row yet (the event not processed) has used nothing.
pub async fn usage(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Usage> {
    let found = sqlx::query_as(
        "SELECT used_bytes, file_count, folder_count FROM storage_usage WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    Ok(found.unwrap_or_default())
}

/// `AccountCreated` opens the user's storage account.
pub struct OpenOnSignUp;

#[async_trait]
impl Handler<AccountCreated> for OpenOnSignUp {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        open_account(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}

/// The gRPC surface: converts proto <-> domain, nothing else.
pub struct EvidenceApi {
    pub pool: PgPool,
}

#[tonic::async_trait]
impl EvidenceRpc for EvidenceApi {
    async fn get_storage_usage(
        &self,
        request: Request<pb::GetStorageUsageRequest>,
    ) -> Result<Response<pb::StorageUsage>, Status> {
        let user_id = Caller::from_metadata(request.metadata()).require_user()?;
        let mut conn = self.pool.acquire().await.map_err(|e| internal(&e.into()))?;
        let found = usage(&mut conn, user_id)
            .await
            .map_err(|e| internal(&e.into()))?;
        Ok(Response::new(pb::StorageUsage {
            used_bytes: found.used_bytes,
            file_count: found.file_count,
            folder_count: found.folder_count,
        }))
    }
}
