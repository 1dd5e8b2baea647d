//! `shareable-codes/...` (spec §7 "Shareable codes").

use axum::{Json, extract::State};
use evidentia_proto::referrals::v1 as referrals;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::AppState;
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(referral_info))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReferralInfo {
    /// The user's own referral code.
    pub code: String,
    /// `individual` by default.
    #[serde(rename = "type")]
    pub code_type: String,
}

/// The signed-in user's own referral code.
#[utoipa::path(get, path = "/api/shareable-codes/referral-info/", tag = "shareable-codes", security(("bearer" = [])),
    responses((status = 200, body = ReferralInfo), (status = 401, body = ErrorBody)))]
async fn referral_info(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<ReferralInfo>> {
    let info = state
        .clients
        .referrals
        .clone()
        .get_referral_info(caller.request(referrals::GetReferralInfoRequest {}))
        .await?
        .into_inner();
    Ok(Json(ReferralInfo {
        code: info.code,
        code_type: info.r#type,
    }))
}
