//! The signed-in user's profile and security (spec §7 "Accounts"): password verification before
//! sensitive changes, names, username, e-mail and phone (with a code to the new address), address,
//! communication method, the history, and deletion with recovery.

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use evidentia_common::time::rfc3339;
use evidentia_proto::accounts::v1 as accounts;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::{Address, PhoneNumber, TokenPair},
    area,
};
use crate::{
    auth::User,
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    forward::{Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        password_verify,
        update_names,
        change_username,
        change_email,
        change_phone,
        change_address,
        change_communication_method,
        history,
        delete_reasons,
        delete,
        recover
    ]
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordVerifyRequest {
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordToken {
    /// Unlocks username, e-mail, phone and password changes and deletion while it lives.
    pub password_token: String,
    pub expires_in_seconds: i64,
}

impl From<PasswordVerifyRequest> for accounts::VerifyPasswordRequest {
    fn from(body: PasswordVerifyRequest) -> Self {
        Self {
            password: body.password,
        }
    }
}

impl From<accounts::PasswordToken> for PasswordToken {
    fn from(token: accounts::PasswordToken) -> Self {
        Self {
            password_token: token.password_token,
            expires_in_seconds: token.expires_in_seconds,
        }
    }
}

forward! {
/// Checks the signed-in user's password before a sensitive change.
#[utoipa::path(post, path = "/api/accounts/password/verify/", tag = "accounts", security(("bearer" = [])),
    request_body = PasswordVerifyRequest,
    responses((status = 200, body = PasswordToken), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn password_verify(body: PasswordVerifyRequest) -> PasswordToken = accounts.verify_password;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NamesUpdate {
    #[schema(min_length = 2, max_length = 150)]
    pub first_name: String,
    #[schema(min_length = 2, max_length = 150)]
    pub last_name: String,
}

forward! {
/// Changes the first and last names (spec §5 "Name").
#[utoipa::path(patch, path = "/api/accounts/first-last-names/update/", tag = "accounts", security(("bearer" = [])),
    request_body = NamesUpdate,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn update_names(body: NamesUpdate) -> NoContent =
    accounts.update_names(|body| accounts::UpdateNamesRequest {
        first_name: body.first_name,
        last_name: body.last_name,
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UsernameChange {
    #[schema(min_length = 2, max_length = 20, pattern = r"^[A-Za-z0-9@+._-]+$")]
    pub new_username: String,
    pub password_token: String,
}

forward! {
/// Changes the username (needs a password token).
#[utoipa::path(patch, path = "/api/accounts/username/change/", tag = "accounts", security(("bearer" = [])),
    request_body = UsernameChange,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn change_username(body: UsernameChange) -> NoContent =
    accounts.change_username(|body| accounts::ChangeUsernameRequest {
        new_username: body.new_username,
        password_token: body.password_token,
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EmailChange {
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub new_email: String,
    pub password_token: String,
    /// The code sent to the new address; without it, one is sent.
    #[schema(pattern = r"^[0-9]{6}$")]
    pub code: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneChange {
    pub new_phone_number: PhoneNumber,
    pub password_token: String,
    /// The code sent to the new number; without it, one is sent.
    #[schema(pattern = r"^[0-9]{6}$")]
    pub code: Option<String>,
}

/// A code went to the new address; the change waits for it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CodeSent {
    pub expires_in_seconds: i64,
    pub sent_to: String,
}

fn change_answer(change: accounts::ChangeResponse) -> Response {
    if change.changed {
        StatusCode::NO_CONTENT.into_response()
    } else {
        (
            StatusCode::ACCEPTED,
            Json(CodeSent {
                expires_in_seconds: change.expires_in_seconds,
                sent_to: change.sent_to,
            }),
        )
            .into_response()
    }
}

/// Changes the e-mail in two steps: a code to the new address (202), then the code (204).
#[utoipa::path(patch, path = "/api/accounts/email/change/", tag = "accounts", security(("bearer" = [])),
    request_body = EmailChange,
    responses((status = 202, body = CodeSent), (status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn change_email(
    State(state): State<AppState>,
    User(caller): User,
    ApiJson(body): ApiJson<EmailChange>,
) -> Result<Response, ApiError> {
    let change = state
        .accounts()
        .change_email(caller.request(accounts::ChangeEmailRequest {
            new_email: body.new_email,
            password_token: body.password_token,
            code: body.code,
        }))
        .await
        .answer()?;
    Ok(change_answer(change))
}

/// Changes the phone number in two steps: a code by SMS to the new number (202), then the code (204).
#[utoipa::path(patch, path = "/api/accounts/phone-number/change/", tag = "accounts", security(("bearer" = [])),
    request_body = PhoneChange,
    responses((status = 202, body = CodeSent), (status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn change_phone(
    State(state): State<AppState>,
    User(caller): User,
    ApiJson(body): ApiJson<PhoneChange>,
) -> Result<Response, ApiError> {
    let change = state
        .accounts()
        .change_phone(caller.request(accounts::ChangePhoneRequest {
            new_phone_number: Some(body.new_phone_number.into()),
            password_token: body.password_token,
            code: body.code,
        }))
        .await
        .answer()?;
    Ok(change_answer(change))
}

forward! {
/// Changes the address (spec §5 "Address").
#[utoipa::path(patch, path = "/api/accounts/address/change/", tag = "accounts", security(("bearer" = [])),
    request_body = Address,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn change_address(body: Address) -> NoContent = accounts.change_address;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CommunicationMethodChange {
    /// `email` or `sms`: where codes go.
    pub communication_method: String,
}

forward! {
/// Chooses how codes reach the user.
#[utoipa::path(post, path = "/api/accounts/communication-method/change/", tag = "accounts", security(("bearer" = [])),
    request_body = CommunicationMethodChange,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn change_communication_method(body: CommunicationMethodChange) -> NoContent = accounts
    .change_communication_method(|body| accounts::ChangeCommunicationMethodRequest {
        communication_method: body.communication_method,
    });
}

/// The history's query parameters; all optional. Numbers arrive as text so that a bad one is a
/// field error like any other.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// 1-based page (default 1).
    #[param(value_type = Option<u32>, minimum = 1)]
    pub page: Option<String>,
    /// 1 to 100 (default 20).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100)]
    pub page_size: Option<String>,
    /// One action, e.g. `sign_in`.
    pub action: Option<String>,
    /// YYYY-MM-DD, inclusive (UTC).
    #[param(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub date_from: Option<String>,
    /// YYYY-MM-DD, inclusive (UTC).
    #[param(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub date_to: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ActionLog {
    pub id: String,
    pub action: String,
    pub description: String,
    pub ip_address: String,
    pub user_agent: String,
    /// RFC 3339.
    pub created_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ActionLogPage {
    /// Entries matching the filters, on every page.
    pub count: i64,
    pub page: u32,
    pub page_size: u32,
    pub results: Vec<ActionLog>,
}

impl From<accounts::ActionLogPage> for ActionLogPage {
    fn from(page: accounts::ActionLogPage) -> Self {
        Self {
            count: page.count,
            page: page.page,
            page_size: page.page_size,
            results: page
                .results
                .into_iter()
                .map(|e| ActionLog {
                    id: e.id,
                    action: e.action,
                    description: e.description,
                    ip_address: e.ip_address,
                    user_agent: e.user_agent,
                    created_at: rfc3339(e.created_at).unwrap_or_default(),
                })
                .collect(),
        }
    }
}

/// A page number or size from the query: 0 when absent (the service's default), otherwise a whole
/// number of at least 1. An explicit 0 is refused rather than read as "absent".
fn number(field: &str, value: Option<&str>) -> Result<u32, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(0),
        Some(v) => match v.parse::<u32>() {
            Ok(0) => Err(ApiError::field(field, "Must be 1 or more.")),
            Ok(n) => Ok(n),
            Err(_) => Err(ApiError::field(field, "Enter a whole number.")),
        },
    }
}

/// The signed-in user's history, newest first.
#[utoipa::path(get, path = "/api/action-logs/history/", tag = "accounts", security(("bearer" = [])),
    params(HistoryQuery),
    responses((status = 200, body = ActionLogPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn history(
    State(state): State<AppState>,
    User(caller): User,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> ApiResult<Json<ActionLogPage>> {
    let request = accounts::ListActionLogsRequest {
        page: number("page", query.page.as_deref())?,
        page_size: number("page_size", query.page_size.as_deref())?,
        action: query.action.unwrap_or_default(),
        date_from: query.date_from.unwrap_or_default(),
        date_to: query.date_to.unwrap_or_default(),
    };
    state
        .accounts()
        .list_action_logs(caller.request(request))
        .await
        .reply()
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DeleteReasonsQuery {
    /// `soft_delete`.
    pub delete_type: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeleteReason {
    pub id: String,
    pub title: String,
}

impl From<accounts::DeleteReason> for DeleteReason {
    fn from(r: accounts::DeleteReason) -> Self {
        Self {
            id: r.id,
            title: r.title,
        }
    }
}

/// The reasons offered when deleting an account.
#[utoipa::path(get, path = "/api/accounts/delete-reasons/", tag = "accounts", security(("bearer" = [])),
    params(DeleteReasonsQuery),
    responses((status = 200, body = Vec<DeleteReason>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn delete_reasons(
    State(state): State<AppState>,
    User(caller): User,
    ApiQuery(query): ApiQuery<DeleteReasonsQuery>,
) -> ApiResult<Json<Vec<DeleteReason>>> {
    let reasons = state
        .accounts()
        .list_delete_reasons(caller.request(accounts::ListDeleteReasonsRequest {
            delete_type: query.delete_type.unwrap_or_default(),
        }))
        .await
        .answer()?;
    Ok(Json(reasons.reasons.into_iter().map(Into::into).collect()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DeleteAccountRequest {
    pub reason_id: String,
    /// Required (3 to 500 characters) when the reason is `other`.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub details: String,
    pub password_token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeleteAccountResponse {
    /// RFC 3339: until then `accounts/recover/` restores the account.
    pub recoverable_until: String,
}

impl From<DeleteAccountRequest> for accounts::DeleteAccountRequest {
    fn from(body: DeleteAccountRequest) -> Self {
        Self {
            reason_id: body.reason_id,
            details: body.details,
            password_token: body.password_token,
        }
    }
}

impl From<accounts::DeleteAccountResponse> for DeleteAccountResponse {
    fn from(deleted: accounts::DeleteAccountResponse) -> Self {
        Self {
            recoverable_until: rfc3339(deleted.recoverable_until).unwrap_or_default(),
        }
    }
}

forward! {
/// Deletes the account (a soft delete): every session ends; it can be recovered for a while.
#[utoipa::path(post, path = "/api/accounts/delete/", tag = "accounts", security(("bearer" = [])),
    request_body = DeleteAccountRequest,
    responses((status = 200, body = DeleteAccountResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn delete(body: DeleteAccountRequest) -> DeleteAccountResponse = accounts.delete_account;
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RecoverAccountRequest {
    /// A username or an e-mail.
    #[schema(max_length = 150)]
    pub username: String,
    pub password: String,
}

impl From<RecoverAccountRequest> for accounts::RecoverAccountRequest {
    fn from(body: RecoverAccountRequest) -> Self {
        Self {
            username: body.username,
            password: body.password,
        }
    }
}

forward! {
/// Restores a deleted account within its grace period and signs it in.
#[utoipa::path(post, path = "/api/accounts/recover/", tag = "accounts",
    request_body = RecoverAccountRequest,
    responses((status = 200, body = TokenPair), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn recover(Client, body: RecoverAccountRequest) -> TokenPair = accounts.recover_account;
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn a_page_number_is_absent_or_a_whole_number_of_at_least_one() {
        assert_eq!(number("page", None).unwrap(), 0);
        assert_eq!(number("page", Some(" ")).unwrap(), 0);
        assert_eq!(number("page", Some("3")).unwrap(), 3);
        let message = |value| {
            number("page", Some(value)).unwrap_err().errors[0]
                .message
                .clone()
        };
        assert_eq!(message("0"), "Must be 1 or more.");
        assert_eq!(message("-1"), "Enter a whole number.");
        assert_eq!(message("two"), "Enter a whole number.");
    }
}
