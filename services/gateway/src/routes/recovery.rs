//! Recovery (spec §7 "Accounts"), open to anyone: phone and username checks, the username sent by
//! e-mail or SMS, and a new password from a code (or, signed in, from a password token).

use axum::{Json, extract::State};
use evidentia_proto::accounts::v1 as accounts;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    AppState,
    accounts::{PhoneNumber, TokenPair},
};
use crate::{
    auth::MaybeUser,
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, Client},
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(phone_verify))
        .routes(routes!(username_has_phone))
        .routes(routes!(username_by_email))
        .routes(routes!(username_by_phone))
        .routes(routes!(password_reset))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneVerifyRequest {
    pub phone_number: PhoneNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PhoneVerifyResponse {
    /// True when an account uses this number.
    pub registered: bool,
}

/// Whether a phone number belongs to an account.
#[utoipa::path(post, path = "/api/accounts/phone/verify/", tag = "accounts",
    request_body = PhoneVerifyRequest,
    responses((status = 200, body = PhoneVerifyResponse), (status = 400, body = ErrorBody)))]
async fn phone_verify(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<PhoneVerifyRequest>,
) -> ApiResult<Json<PhoneVerifyResponse>> {
    let found = state
        .clients
        .accounts
        .clone()
        .is_phone_registered(caller.request(accounts::PhoneVerifyRequest {
            phone_number: Some(body.phone_number.into()),
        }))
        .await?
        .into_inner();
    Ok(Json(PhoneVerifyResponse {
        registered: found.registered,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UsernameHasPhoneRequest {
    /// A username or an e-mail.
    #[schema(max_length = 150)]
    pub username: String,
}

/// Where a password-reset code can go, masked.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecoveryOptions {
    pub email_hint: String,
    /// Present when the account has a phone number.
    pub phone_hint: Option<String>,
    /// `email` or `sms`: where codes go unless the user chooses.
    pub communication_method: String,
}

/// Whether the account has a phone for an SMS code, and where its codes can go.
#[utoipa::path(post, path = "/api/accounts/username-has-phone/verify/", tag = "accounts",
    request_body = UsernameHasPhoneRequest,
    responses((status = 200, body = RecoveryOptions), (status = 400, body = ErrorBody)))]
async fn username_has_phone(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<UsernameHasPhoneRequest>,
) -> ApiResult<Json<RecoveryOptions>> {
    let options = state
        .clients
        .accounts
        .clone()
        .get_recovery_options(caller.request(accounts::RecoveryOptionsRequest {
            username: body.username,
        }))
        .await?
        .into_inner();
    Ok(Json(RecoveryOptions {
        email_hint: options.email_hint,
        phone_hint: options.phone_hint,
        communication_method: options.communication_method,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UsernameByEmailRequest {
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UsernameByPhoneRequest {
    pub phone_number: PhoneNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SentTo {
    /// The masked address the message went to.
    pub sent_to: String,
}

/// Sends the username of the account with this e-mail to it.
#[utoipa::path(post, path = "/api/accounts/username-by-email/verify/", tag = "accounts",
    request_body = UsernameByEmailRequest,
    responses((status = 200, body = SentTo), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn username_by_email(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<UsernameByEmailRequest>,
) -> ApiResult<Json<SentTo>> {
    let sent = state
        .clients
        .accounts
        .clone()
        .send_username_by_email(
            caller.request(accounts::UsernameByEmailRequest { email: body.email }),
        )
        .await?
        .into_inner();
    Ok(Json(SentTo {
        sent_to: sent.sent_to,
    }))
}

/// Sends the username of the account with this phone number to it by SMS.
#[utoipa::path(post, path = "/api/accounts/username-by-phone/verify/", tag = "accounts",
    request_body = UsernameByPhoneRequest,
    responses((status = 200, body = SentTo), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn username_by_phone(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<UsernameByPhoneRequest>,
) -> ApiResult<Json<SentTo>> {
    let sent = state
        .clients
        .accounts
        .clone()
        .send_username_by_phone(caller.request(accounts::UsernameByPhoneRequest {
            phone_number: Some(body.phone_number.into()),
        }))
        .await?
        .into_inner();
    Ok(Json(SentTo {
        sent_to: sent.sent_to,
    }))
}

/// Forgot password: `username` and the `verification_token` of a `password_reset` code. Signed
/// in (change password): a `password_token` from `password/verify/`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordResetRequest {
    #[schema(min_length = 8, max_length = 32)]
    pub new_password: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub verification_token: String,
    #[serde(default)]
    pub password_token: String,
}

/// Sets a new password; every other session ends and a new one starts for this device.
#[utoipa::path(post, path = "/api/accounts/password/reset/", tag = "accounts", security((), ("bearer" = [])),
    request_body = PasswordResetRequest,
    responses((status = 200, body = TokenPair), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn password_reset(
    State(state): State<AppState>,
    MaybeUser(caller): MaybeUser,
    ApiJson(body): ApiJson<PasswordResetRequest>,
) -> ApiResult<Json<TokenPair>> {
    let pair = state
        .clients
        .accounts
        .clone()
        .reset_password(caller.request(accounts::ResetPasswordRequest {
            new_password: body.new_password,
            username: body.username,
            verification_token: body.verification_token,
            password_token: body.password_token,
        }))
        .await?
        .into_inner();
    Ok(Json(pair.into()))
}
