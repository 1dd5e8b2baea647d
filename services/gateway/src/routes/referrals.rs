//! `shareable-codes/...` (spec §7 "Shareable codes"): the user's referral code and what it has
//! brought, invitations by e-mail or SMS, a referral code check for the sign-up screen, and
//! promo codes.

use axum::{Json, extract::State};
use evidentia_common::time::rfc3339;
use evidentia_proto::{payments::v1 as payments, referrals::v1 as referrals};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, accounts::PhoneNumber, area};
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, IdempotencyKey},
    forward::{Reply, forward, lists},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        referral_info,
        list_invitations,
        create_invitation,
        resend_invitation,
        delete_invitation,
        check_referral_code,
        check_promo_code,
    ]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReferralInfo {
    /// The user's own referral code.
    pub code: String,
    /// `individual` by default.
    #[serde(rename = "type")]
    pub code_type: String,
    /// The sign-up link carrying the code.
    pub link: String,
    /// Cents credited to the inviter's wallet, and to the friend's, once the friend's first
    /// payment succeeds.
    pub referrer_reward: i64,
    pub friend_reward: i64,
    /// Rewards one inviter can earn in a calendar month.
    pub monthly_cap: i64,
    /// Invitations sent.
    pub invited: i64,
    /// Friends who signed up with the code.
    pub signed_up: i64,
    /// Friends whose first payment earned the reward.
    pub rewarded: i64,
    /// Cents earned in all.
    pub earned: i64,
}

/// The caller's referral code, the programme's rules in numbers, and what the code has brought.
#[utoipa::path(get, path = "/api/shareable-codes/referral-info/", tag = "shareable-codes", security(("bearer" = [])),
    responses((status = 200, body = ReferralInfo), (status = 401, body = ErrorBody)))]
async fn referral_info(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<ReferralInfo>> {
    let mut referrals_client = state.referrals();
    let mut payments_client = state.payments();
    let (info, pricing) = tokio::join!(
        referrals_client.get_referral_info(caller.request(referrals::GetReferralInfoRequest {})),
        payments_client.get_pricing(caller.request(payments::GetPricingRequest {})),
    );
    let info = info.answer()?;
    let pricing = pricing.answer()?;
    Ok(Json(ReferralInfo {
        code: info.code,
        code_type: info.r#type,
        link: info.link,
        referrer_reward: pricing.referrer_reward,
        friend_reward: pricing.friend_reward,
        monthly_cap: pricing.referral_monthly_cap,
        invited: info.invited,
        signed_up: info.signed_up,
        rewarded: info.rewarded,
        earned: info.earned,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Invitation {
    #[schema(value_type = uuid::Uuid)]
    pub id: String,
    /// `email` or `sms`.
    pub channel: String,
    /// The e-mail address, or the phone number in international form.
    pub sent_to: String,
    pub name: String,
    /// `invited`, `signed_up` or `rewarded`.
    pub status: String,
    pub created_at: Option<String>,
    pub last_sent_at: Option<String>,
    /// How many times it was sent.
    pub sends: i32,
    /// When it can be sent again; null when it can be now.
    pub resend_after: Option<String>,
    /// How many more times it can be sent (0: no more).
    pub sends_left: i32,
}

impl From<referrals::Invitation> for Invitation {
    fn from(i: referrals::Invitation) -> Self {
        Self {
            id: i.id,
            channel: i.channel,
            sent_to: i.sent_to,
            name: i.name,
            status: i.status,
            created_at: rfc3339(i.created_at),
            last_sent_at: rfc3339(i.last_sent_at),
            sends: i.sends,
            resend_after: rfc3339(i.resend_after),
            sends_left: i.sends_left,
        }
    }
}

lists! {
Invitations from referrals::Invitations {
    /// At most 50.
    invitations: Invitation,
}
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvitationsQuery {
    /// `newest` (the default), `oldest`, `name` or `status`.
    pub sorting: Option<String>,
}

forward! {
/// The caller's invitations, at most 50, in the order asked for; an unknown `sorting` is a
/// field error.
#[utoipa::path(get, path = "/api/shareable-codes/retrieve/", tag = "shareable-codes", security(("bearer" = [])),
    params(InvitationsQuery),
    responses((status = 200, body = Invitations), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn list_invitations(query: InvitationsQuery) -> Invitations =
    referrals.list_invitations(|query| referrals::ListInvitationsRequest {
        sorting: query.sorting.unwrap_or_default(),
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewInvitation {
    /// The friend's e-mail address (an invitation by e-mail), or
    #[schema(max_length = 150)]
    pub email: Option<String>,
    /// their phone number (an invitation by SMS): one of the two.
    pub phone_number: Option<PhoneNumber>,
    /// How you name your friend, 2 to 150 characters, optional.
    #[schema(max_length = 150)]
    pub name: Option<String>,
}

forward! {
/// Sends the caller's referral link to a friend by e-mail or SMS. `type` is the code's type,
/// `individual`. Refused with field errors: an invalid address (spec §5 messages), one of the
/// caller's own, one with an account already, or one already invited; 429 past the day's
/// invitations.
#[utoipa::path(post, path = "/api/shareable-codes/{type}/create/", tag = "shareable-codes", security(("bearer" = [])),
    params(("type" = String, Path, description = "`individual`")), request_body = NewInvitation,
    responses((status = 201, body = Invitation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
fn create_invitation(path: String, body: NewInvitation) -> Created<Invitation> =
    referrals.create_invitation(|kind, body| referrals::CreateInvitationRequest {
        r#type: kind,
        email: body.email.unwrap_or_default(),
        phone_number: body.phone_number.map(|p| referrals::PhoneNumber {
            country_code: p.country_code,
            national_number: p.national_number,
        }),
        name: body.name.unwrap_or_default(),
    });
}

forward! {
/// Sends one of the caller's invitations again: 429 with `Retry-After` until its `resend_after`,
/// or once it was sent five times.
#[utoipa::path(post, path = "/api/shareable-codes/{id}/resend/", tag = "shareable-codes", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path)),
    responses((status = 200, body = Invitation), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
fn resend_invitation(path: String) -> Invitation =
    referrals.resend_invitation(|id| referrals::InvitationRef { id });
}

forward! {
/// Deletes one of the caller's invitations.
#[utoipa::path(delete, path = "/api/shareable-codes/{id}/delete/", tag = "shareable-codes", security(("bearer" = [])),
    params(("id" = uuid::Uuid, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn delete_invitation(path: String) -> NoContent =
    referrals.delete_invitation(|id| referrals::InvitationRef { id });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReferralCode {
    /// As typed or carried by an invitation link.
    #[schema(max_length = 40)]
    pub code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReferralCheck {
    /// Whether the code is someone's.
    pub valid: bool,
    /// Its owner's first name ('' when they gave none, or the code is no one's).
    pub first_name: String,
}

impl From<referrals::ReferralCodeCheck> for ReferralCheck {
    fn from(check: referrals::ReferralCodeCheck) -> Self {
        Self {
            valid: check.valid,
            first_name: check.first_name,
        }
    }
}

forward! {
/// Whether a referral code is someone's, and whose (open to anyone: the sign-up screen asks;
/// limited per client address).
#[utoipa::path(post, path = "/api/shareable-codes/check/", tag = "shareable-codes",
    request_body = ReferralCode,
    responses((status = 200, body = ReferralCheck), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn check_referral_code(Client, body: ReferralCode) -> ReferralCheck =
    referrals.check_referral_code(|body| referrals::CheckReferralCodeRequest { code: body.code });
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
/// code answers 400 with the reason on the `code` field (spec §8); the key of an earlier request
/// sent with another code is 409.
#[utoipa::path(post, path = "/api/shareable-codes/promo-code/check/", tag = "shareable-codes", security(("bearer" = [])),
    params(("Idempotency-Key" = String, Header)), request_body = PromoCode,
    responses((status = 200, body = PromoCredit), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
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
