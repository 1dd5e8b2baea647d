//! `evidence/...`: the owner's folders and files (spec §7 does not show them: ours to design,
//! see docs/decisions.md).

use axum::{Json, extract::State};
use evidentia_proto::evidence::v1 as evidence;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::AppState;
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(storage_usage))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StorageUsage {
    /// Bytes of all the user's files.
    pub used_bytes: i64,
    pub file_count: i64,
    pub folder_count: i64,
}

/// How much the signed-in user stores.
#[utoipa::path(get, path = "/api/evidence/storage-usage/", tag = "evidence", security(("bearer" = [])),
    responses((status = 200, body = StorageUsage), (status = 401, body = ErrorBody)))]
async fn storage_usage(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<StorageUsage>> {
    let usage = state
        .clients
        .evidence
        .clone()
        .get_storage_usage(caller.request(evidence::GetStorageUsageRequest {}))
        .await?
        .into_inner();
    Ok(Json(StorageUsage {
        used_bytes: usage.used_bytes,
        file_count: usage.file_count,
        folder_count: usage.folder_count,
    }))
}
