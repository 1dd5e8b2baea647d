//! `shareable-codes/...` (spec §7 "Shareable codes").

use axum::{Json, extract::State};
use evidentia_proto::referrals::v1 as referrals;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, IdempotencyKey},
    forward::{Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![referral_info, check_promo_code]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReferralInfo {
    /// The user's own referral code.
    pub code: String,
    /// `individual` by default.
    #[serde(rename = "type")]
    pub code_type: String,
}

impl From<referrals::ReferralInfo> for ReferralInfo {
    fn from(info: referrals::ReferralInfo) -> Self {
        Self {
            code: info.code,
            code_type: info.r#type,
        }
    }
}

forward! {
/// The signed-in user's own referral code.
#[utoipa::path(get, path = "/api/shareable-codes/referral-info/", tag = "shareable-codes", security(("bearer" = [])),
    responses((status = 200, body = ReferralInfo), (status = 401, body = ErrorBody)))]
fn referral_info() -> ReferralInfo =
    referrals.get_referral_info(referrals::GetReferralInfoRequest {});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PromoCode {
    /// As typed, 'AAA AAA' (spec §5), sent in upper case.
    #[schema(pattern = r"^[A-Za-z0-9]{3} ?[A-Za-z0-9]{3}$")]
    pub code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PromoCredit {
    /// Cents credited to the wallet.
    pub amount: i64,
}

impl From<referrals::PromoCodeCredit> for PromoCredit {
    fn from(credit: referrals::PromoCodeCredit) -> Self {
        Self {
            amount: credit.amount,
        }
    }
}

/// Applies a promo code: the wallet is credited by its amount, once per user and code. A rejected
/// code answers 400 with the reason on the `code` field (spec §8).
#[utoipa::path(post, path = "/api/shareable-codes/promo-code/check/", tag = "shareable-codes", security(("bearer" = [])),
    params(("Idempotency-Key" = String, Header)), request_body = PromoCode,
    responses((status = 200, body = PromoCredit), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn check_promo_code(
    State(state): State<AppState>,
    User(caller): User,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(body): ApiJson<PromoCode>,
) -> ApiResult<Json<PromoCredit>> {
    let request = referrals::ApplyPromoCodeRequest {
        code: body.code,
        idempotency_key: key,
    };
    state
        .referrals()
        .apply_promo_code(caller.request(request))
        .await
        .reply()
}
