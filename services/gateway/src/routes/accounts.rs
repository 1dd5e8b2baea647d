//! `accounts/...` (spec §7 "Accounts"): sign-up, confirmation codes, sessions and the profile.

use axum::{
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use evidentia_common::{
    profile_cache::{self, Lookup},
    time::rfc3339,
};
use evidentia_proto::{accounts::v1 as accounts, payments::v1 as payments};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};
use crate::{
    auth::Token,
    error::{ApiError, ApiResult, ErrorBody},
    forward::{Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        verify_availability,
        send_code,
        verify_code,
        create,
        login,
        refresh,
        logout,
        me
    ]
}

/// A phone number with its country calling code.
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
pub struct PhoneNumber {
    /// '+' and 1 to 5 digits, e.g. `+1`.
    #[schema(pattern = r"^\+[0-9]{1,5}$")]
    pub country_code: String,
    /// 9 to 11 digits.
    #[schema(pattern = r"^[0-9]{9,11}$")]
    pub national_number: String,
}

impl From<accounts::PhoneNumber> for PhoneNumber {
    fn from(p: accounts::PhoneNumber) -> Self {
        Self {
            country_code: p.country_code,
            national_number: p.national_number,
        }
    }
}

impl From<PhoneNumber> for accounts::PhoneNumber {
    fn from(p: PhoneNumber) -> Self {
        Self {
            country_code: p.country_code,
            national_number: p.national_number,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AvailabilityRequest {
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: Option<String>,
    #[schema(min_length = 2, max_length = 20, pattern = r"^[A-Za-z0-9@+._-]+$")]
    pub username: Option<String>,
    pub phone_number: Option<PhoneNumber>,
}

/// True when the value is still available; only the values sent are answered.
#[derive(Debug, Serialize, ToSchema)]
pub struct AvailabilityResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone_number: Option<bool>,
}

impl From<AvailabilityRequest> for accounts::CheckAvailabilityRequest {
    fn from(body: AvailabilityRequest) -> Self {
        Self {
            email: body.email,
            username: body.username,
            phone_number: body.phone_number.map(Into::into),
        }
    }
}

impl From<accounts::CheckAvailabilityResponse> for AvailabilityResponse {
    fn from(found: accounts::CheckAvailabilityResponse) -> Self {
        Self {
            email: found.email,
            username: found.username,
            phone_number: found.phone_number,
        }
    }
}

forward! {
/// Whether an e-mail, username and phone number are still free.
#[utoipa::path(post, path = "/api/accounts/email-username-phone-number/verify/", tag = "accounts",
    request_body = AvailabilityRequest,
    responses((status = 200, body = AvailabilityResponse), (status = 400, body = ErrorBody)))]
fn verify_availability(Client, body: AvailabilityRequest) -> AvailabilityResponse =
    accounts.check_availability;
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum CodePurpose {
    #[default]
    SignUp,
    PasswordReset,
}

impl From<CodePurpose> for i32 {
    fn from(p: CodePurpose) -> Self {
        match p {
            CodePurpose::SignUp => accounts::CodePurpose::SignUp as i32,
            CodePurpose::PasswordReset => accounts::CodePurpose::PasswordReset as i32,
        }
    }
}

/// Where a code goes.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Email,
    Sms,
}

fn channel(c: Option<Channel>) -> accounts::Channel {
    match c {
        None => accounts::Channel::Unspecified,
        Some(Channel::Email) => accounts::Channel::Email,
        Some(Channel::Sms) => accounts::Channel::Sms,
    }
}

/// `sign_up`: the code goes to `email`. `password_reset`: to the e-mail or phone of the account
/// `username` names (a username or an e-mail), by `channel` or else its communication method.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SendCodeRequest {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub purpose: CodePurpose,
    pub channel: Option<Channel>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SendCodeResponse {
    pub expires_in_seconds: i64,
    /// The masked destination, e.g. `a***@example.com` or `+1 *******100`.
    pub sent_to: String,
}

impl From<SendCodeRequest> for accounts::SendConfirmationCodeRequest {
    fn from(body: SendCodeRequest) -> Self {
        Self {
            email: body.email,
            purpose: body.purpose.into(),
            username: body.username,
            channel: channel(body.channel) as i32,
        }
    }
}

impl From<accounts::SendConfirmationCodeResponse> for SendCodeResponse {
    fn from(sent: accounts::SendConfirmationCodeResponse) -> Self {
        Self {
            expires_in_seconds: sent.expires_in_seconds,
            sent_to: sent.sent_to,
        }
    }
}

forward! {
/// Sends a 6-digit confirmation code by e-mail or SMS (rate-limited per destination).
#[utoipa::path(post, path = "/api/accounts/confirmation-code/send/", tag = "accounts",
    request_body = SendCodeRequest,
    responses((status = 200, body = SendCodeResponse), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn send_code(Client, body: SendCodeRequest) -> SendCodeResponse = accounts.send_confirmation_code;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VerifyCodeRequest {
    /// For `sign_up`.
    #[serde(default)]
    pub email: String,
    /// For `password_reset`: a username or an e-mail.
    #[serde(default)]
    pub username: String,
    /// Six digits.
    #[schema(pattern = r"^[0-9]{6}$")]
    pub code: String,
    #[serde(default)]
    pub purpose: CodePurpose,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyCodeResponse {
    /// Spent by the call the code unlocks (`accounts/create/`, `accounts/password/reset/`).
    pub verification_token: String,
}

impl From<VerifyCodeRequest> for accounts::VerifyConfirmationCodeRequest {
    fn from(body: VerifyCodeRequest) -> Self {
        Self {
            email: body.email,
            code: body.code,
            purpose: body.purpose.into(),
            username: body.username,
        }
    }
}

impl From<accounts::VerifyConfirmationCodeResponse> for VerifyCodeResponse {
    fn from(verified: accounts::VerifyConfirmationCodeResponse) -> Self {
        Self {
            verification_token: verified.verification_token,
        }
    }
}

forward! {
/// Checks a confirmation code: single use, 10 minutes, at most 5 tries.
#[utoipa::path(post, path = "/api/accounts/confirmation-code/verify/", tag = "accounts",
    request_body = VerifyCodeRequest,
    responses((status = 200, body = VerifyCodeResponse), (status = 400, body = ErrorBody)))]
fn verify_code(Client, body: VerifyCodeRequest) -> VerifyCodeResponse =
    accounts.verify_confirmation_code;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateAccountRequest {
    #[schema(min_length = 2, max_length = 20, pattern = r"^[A-Za-z0-9@+._-]+$")]
    pub username: String,
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: String,
    pub phone_number: PhoneNumber,
    #[schema(min_length = 8, max_length = 32)]
    pub password: String,
    /// From `confirmation-code/verify/`.
    pub verification_token: String,
    #[serde(default)]
    #[schema(max_length = 150)]
    pub first_name: String,
    #[serde(default)]
    #[schema(max_length = 150)]
    pub last_name: String,
    /// Signs up an organization (3 to 30 characters) with this account as its owner.
    #[schema(min_length = 3, max_length = 30)]
    pub organization_name: Option<String>,
    /// A friend's referral code from their invitation link (`/sign-up?referred=true&code=`):
    /// the account becomes their referral.
    #[schema(max_length = 20, pattern = r"^[A-Za-z0-9]*$")]
    pub referral_code: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenPair {
    /// Short-lived JWT for `Authorization: Bearer`.
    pub access: String,
    /// Single-use; exchanged at `token/refresh/`.
    pub refresh: String,
}

impl From<accounts::TokenPair> for TokenPair {
    fn from(pair: accounts::TokenPair) -> Self {
        Self {
            access: pair.access,
            refresh: pair.refresh,
        }
    }
}

forward! {
/// Creates an account from a verified e-mail (an organization's, as its owner, with
/// `organization_name`) and signs it in.
#[utoipa::path(post, path = "/api/accounts/create/", tag = "accounts",
    request_body = CreateAccountRequest,
    responses((status = 201, body = TokenPair), (status = 400, body = ErrorBody)))]
fn create(Client, body: CreateAccountRequest) -> Created<TokenPair> =
    accounts.create_account(|body| accounts::CreateAccountRequest {
        username: body.username,
        email: body.email,
        phone_number: Some(body.phone_number.into()),
        password: body.password,
        verification_token: body.verification_token,
        first_name: body.first_name,
        last_name: body.last_name,
        organization_name: body.organization_name.unwrap_or_default(),
        referral_code: body.referral_code.unwrap_or_default(),
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    /// A username or an e-mail address.
    pub username: String,
    pub password: String,
}

impl From<LoginRequest> for accounts::LoginRequest {
    fn from(body: LoginRequest) -> Self {
        Self {
            username: body.username,
            password: body.password,
        }
    }
}

forward! {
/// Signs in (rate-limited per account and per client address). A deleted account answers 403
/// `account_deleted` with the date until which it can be recovered.
#[utoipa::path(post, path = "/api/accounts/login/", tag = "accounts",
    request_body = LoginRequest,
    responses((status = 200, body = TokenPair), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn login(Client, body: LoginRequest) -> TokenPair = accounts.login;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefreshRequest {
    pub refresh: String,
}

impl From<RefreshRequest> for accounts::RefreshTokenRequest {
    fn from(body: RefreshRequest) -> Self {
        Self {
            refresh: body.refresh,
        }
    }
}

forward! {
/// Exchanges a refresh token for a new pair; a reused token ends its session.
#[utoipa::path(post, path = "/api/accounts/token/refresh/", tag = "accounts",
    request_body = RefreshRequest,
    responses((status = 200, body = TokenPair), (status = 401, body = ErrorBody)))]
fn refresh(Client, body: RefreshRequest) -> TokenPair = accounts.refresh_token;
}

forward! {
/// Ends the caller's session of the refresh token; 404 for a token that is not one of the
/// caller's (another user's sessions are theirs to end).
#[utoipa::path(post, path = "/api/accounts/logout/", tag = "accounts", security(("bearer" = [])),
    request_body = RefreshRequest,
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn logout(body: RefreshRequest) -> NoContent =
    accounts.logout(|body| accounts::LogoutRequest { refresh: body.refresh });
}

/// Spec §5 Address: empty strings while none is set. A change needs country, province, street
/// and city of at least 2 characters and a house and zip code; only the maxima fit a schema that
/// also describes the empty answer.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
pub struct Address {
    #[schema(max_length = 50)]
    pub country: String,
    #[schema(max_length = 9)]
    pub apartment_number: String,
    #[schema(max_length = 30)]
    pub province: String,
    #[schema(max_length = 50)]
    pub street: String,
    #[schema(max_length = 9)]
    pub house: String,
    #[schema(max_length = 50)]
    pub city: String,
    #[schema(max_length = 9)]
    pub zip_code: String,
}

impl From<accounts::Address> for Address {
    fn from(a: accounts::Address) -> Self {
        Self {
            country: a.country,
            apartment_number: a.apartment_number,
            province: a.province,
            street: a.street,
            house: a.house,
            city: a.city,
            zip_code: a.zip_code,
        }
    }
}

impl From<Address> for accounts::Address {
    fn from(a: Address) -> Self {
        Self {
            country: a.country,
            apartment_number: a.apartment_number,
            province: a.province,
            street: a.street,
            house: a.house,
            city: a.city,
            zip_code: a.zip_code,
        }
    }
}

/// The signed-in user's profile (spec §3 "User details").
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub id: String,
    pub username: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// `individual` or `organization`.
    pub account_type: String,
    pub phone_number: PhoneNumber,
    /// `email` or `sms`.
    pub communication_method: String,
    pub address: Address,
    pub stripe_customer_id: Option<String>,
    pub default_payment_method: Option<String>,
    /// Cents.
    pub auto_topping_up_amount: i64,
    /// Cents.
    pub credit_card_wallet_balance: i64,
    pub one_time_benefit_applied: bool,
    /// RFC 3339.
    pub created_at: String,
    /// The organization the user belongs to, with their role in it.
    pub organization: Option<OrganizationSummary>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrganizationSummary {
    pub id: String,
    pub name: String,
    /// `owner`, `admin` or `member`.
    pub role: String,
}

// Answered from the profile kept in Redis while nothing it is made of has changed
// (`evidentia_common::profile_cache`); the comment below is the operation's public summary.
/// The profile, composed from accounts and payments fetched in parallel.
#[utoipa::path(get, path = "/api/accounts/me/", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = Profile), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, token: Token) -> ApiResult<Response> {
    let redis = &state.sessions.redis;
    let Token { caller, access } = token;
    // Fail closed, as for every signed-in call: without Redis no token can be trusted.
    let stamp = match profile_cache::lookup(redis, access.session_id, access.user_id)
        .await
        .map_err(|err| ApiError::unavailable(&err))?
    {
        Lookup::Revoked => return Err(ApiError::unauthorized()),
        Lookup::Hit(json) => return Ok(json_response(json)),
        Lookup::Miss(stamp) => stamp,
    };
    let mut accounts_client = state.accounts();
    let mut payments_client = state.payments();
    let (account, payment) = tokio::join!(
        accounts_client.get_profile(caller.request(accounts::GetProfileRequest {})),
        payments_client.get_payment_profile(caller.request(payments::GetPaymentProfileRequest {})),
    );
    let account = account.answer()?;
    let payment = payment.answer()?;
    let profile = Profile {
        id: account.id,
        username: account.username,
        email: account.email,
        first_name: account.first_name,
        last_name: account.last_name,
        account_type: account.account_type,
        phone_number: account.phone_number.unwrap_or_default().into(),
        communication_method: account.communication_method,
        address: account.address.unwrap_or_default().into(),
        stripe_customer_id: payment.stripe_customer_id,
        default_payment_method: payment.default_payment_method,
        auto_topping_up_amount: payment.auto_topping_up_amount,
        credit_card_wallet_balance: payment.credit_card_wallet_balance,
        one_time_benefit_applied: payment.one_time_benefit_applied,
        created_at: rfc3339(account.created_at).unwrap_or_default(),
        organization: account.organization.map(|o| OrganizationSummary {
            id: o.id,
            name: o.name,
            role: o.role,
        }),
    };
    let json = serde_json::to_vec(&profile).map_err(|err| ApiError::internal(&err))?;
    // Not storing costs the next read a miss, nothing more.
    if let Err(err) = profile_cache::store(redis, access.user_id, &stamp, &json).await {
        tracing::warn!(error = %err, "cannot store the profile");
    }
    Ok(json_response(json))
}

fn json_response(json: Vec<u8>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        json,
    )
        .into_response()
}
