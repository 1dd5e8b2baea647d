//! Recovery (spec §7 "Accounts"), open to anyone: phone and username checks, the username sent by
//! e-mail or SMS, and a new password from a code (or, signed in, from a password token).

use evidentia_proto::accounts::v1 as accounts;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::{PhoneNumber, TokenPair},
    area,
};
use crate::{error::ErrorBody, forward::forward};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        phone_verify,
        username_has_phone,
        username_by_email,
        username_by_phone,
        password_reset
    ]
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

impl From<PhoneVerifyRequest> for accounts::PhoneVerifyRequest {
    fn from(body: PhoneVerifyRequest) -> Self {
        Self {
            phone_number: Some(body.phone_number.into()),
        }
    }
}

impl From<accounts::PhoneVerifyResponse> for PhoneVerifyResponse {
    fn from(found: accounts::PhoneVerifyResponse) -> Self {
        Self {
            registered: found.registered,
        }
    }
}

forward! {
/// Whether a phone number belongs to an account.
#[utoipa::path(post, path = "/api/accounts/phone/verify/", tag = "accounts",
    request_body = PhoneVerifyRequest,
    responses((status = 200, body = PhoneVerifyResponse), (status = 400, body = ErrorBody)))]
fn phone_verify(Client, body: PhoneVerifyRequest) -> PhoneVerifyResponse =
    accounts.is_phone_registered;
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

impl From<UsernameHasPhoneRequest> for accounts::RecoveryOptionsRequest {
    fn from(body: UsernameHasPhoneRequest) -> Self {
        Self {
            username: body.username,
        }
    }
}

impl From<accounts::RecoveryOptions> for RecoveryOptions {
    fn from(options: accounts::RecoveryOptions) -> Self {
        Self {
            email_hint: options.email_hint,
            phone_hint: options.phone_hint,
            communication_method: options.communication_method,
        }
    }
}

forward! {
/// Whether the account has a phone for an SMS code, and where its codes can go.
#[utoipa::path(post, path = "/api/accounts/username-has-phone/verify/", tag = "accounts",
    request_body = UsernameHasPhoneRequest,
    responses((status = 200, body = RecoveryOptions), (status = 400, body = ErrorBody)))]
fn username_has_phone(Client, body: UsernameHasPhoneRequest) -> RecoveryOptions =
    accounts.get_recovery_options;
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

impl From<UsernameByEmailRequest> for accounts::UsernameByEmailRequest {
    fn from(body: UsernameByEmailRequest) -> Self {
        Self { email: body.email }
    }
}

impl From<UsernameByPhoneRequest> for accounts::UsernameByPhoneRequest {
    fn from(body: UsernameByPhoneRequest) -> Self {
        Self {
            phone_number: Some(body.phone_number.into()),
        }
    }
}

impl From<accounts::SentTo> for SentTo {
    fn from(sent: accounts::SentTo) -> Self {
        Self {
            sent_to: sent.sent_to,
        }
    }
}

forward! {
/// Sends the username of the account with this e-mail to it.
#[utoipa::path(post, path = "/api/accounts/username-by-email/verify/", tag = "accounts",
    request_body = UsernameByEmailRequest,
    responses((status = 200, body = SentTo), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn username_by_email(Client, body: UsernameByEmailRequest) -> SentTo =
    accounts.send_username_by_email;
}

forward! {
/// Sends the username of the account with this phone number to it by SMS.
#[utoipa::path(post, path = "/api/accounts/username-by-phone/verify/", tag = "accounts",
    request_body = UsernameByPhoneRequest,
    responses((status = 200, body = SentTo), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn username_by_phone(Client, body: UsernameByPhoneRequest) -> SentTo =
    accounts.send_username_by_phone;
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

forward! {
/// Sets a new password; every other session ends and a new one starts for this device.
#[utoipa::path(post, path = "/api/accounts/password/reset/", tag = "accounts", security((), ("bearer" = [])),
    request_body = PasswordResetRequest,
    responses((status = 200, body = TokenPair), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn password_reset(MaybeUser, body: PasswordResetRequest) -> TokenPair =
    accounts.reset_password(|body| accounts::ResetPasswordRequest {
        new_password: body.new_password,
        username: body.username,
        verification_token: body.verification_token,
        password_token: body.password_token,
    });
}
