//! Futuregrams (spec §7 "Sharing": `sharing/scheduled-shares/create/` and
//! `sharing/futuregram/...`): a share bought now and released later, by date or by its executors.
//! The owner's calls are signed in; executors and recipients hold a token from their message.
//! docs/decisions.md "Futuregram" records the rules.

use axum::{Json, extract::State, http::StatusCode};
use evidentia_common::time::{rfc3339, timestamp};
use evidentia_proto::sharing::v1 as sharing;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::PhoneNumber,
    area,
    payments::{PayResponse, StoredAccount, Transaction},
    sharing::{CopyType, RecipientInput, SharedFolder, copy_type, phone_pb, recipients_pb},
};
use crate::{
    auth::User,
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, Client, IdempotencyKey},
    forward::{Created, Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        create_futuregram,
        situation_futuregrams,
        update_futuregram_recipients,
        update_futuregram_executors,
        cancel_futuregram_release,
        respond_as_executor,
        view_futuregram,
        refresh_futuregram_link
    ]
}

/// An executor: the e-mail address their invitation goes to (and their answers must give),
/// optionally a phone number that gets the same links by SMS.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ExecutorInput {
    #[schema(max_length = 250)]
    pub email: String,
    pub phone_number: Option<PhoneNumber>,
}

fn executors_pb(list: Vec<ExecutorInput>) -> Vec<sharing::Executor> {
    list.into_iter()
        .map(|e| sharing::Executor {
            email: e.email,
            phone_number: e.phone_number.map(phone_pb),
        })
        .collect()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FuturegramRequest {
    /// The capture situation (the capture screen's `situation`) it belongs to.
    #[schema(max_length = 36)]
    pub situation_id: String,
    #[schema(max_length = 36)]
    pub folder_id: String,
    pub copy_type: CopyType,
    /// The files to release; empty or absent: the whole folder.
    #[serde(default)]
    #[schema(max_items = 500)]
    pub item_ids: Vec<String>,
    #[schema(min_items = 1, max_items = 20)]
    pub recipients: Vec<RecipientInput>,
    #[serde(default)]
    #[schema(max_items = 10)]
    pub executors: Vec<ExecutorInput>,
    /// RFC 3339. Absent: released when executors ask for it (at least one executor needed).
    #[schema(max_length = 40)]
    pub release_at: Option<String>,
    /// `wallet` or `card`.
    pub pay_with: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FuturegramItem {
    pub id: String,
    pub name: String,
    pub media_type: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FuturegramRecipient {
    pub sent_to: String,
    /// `email` or `sms`.
    pub channel: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FuturegramExecutor {
    pub id: String,
    pub email: String,
    /// E.164, or empty.
    pub phone: String,
    /// `invited`, `accepted` or `declined`.
    pub state: String,
    pub release_requested: bool,
    pub vetoed: bool,
    pub responded_at: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Futuregram {
    /// The share it releases (after the release, an ordinary share of the folder).
    pub share_id: String,
    pub situation_id: String,
    pub folder_id: String,
    pub folder_name: String,
    pub copy_type: CopyType,
    /// Absent: released by its executors.
    pub release_at: Option<String>,
    /// `pending`, `waiting` (executors asked; released at `due_at` unless cancelled),
    /// `released` or `vetoed`.
    pub state: String,
    pub due_at: Option<String>,
    pub released_at: Option<String>,
    pub created_at: Option<String>,
    pub items: Vec<FuturegramItem>,
    pub recipients: Vec<FuturegramRecipient>,
    pub executors: Vec<FuturegramExecutor>,
    /// Recipients paid for: an update may change them, not add more.
    pub recipients_paid: i32,
    pub payment_transaction_number: String,
}

impl From<sharing::Futuregram> for Futuregram {
    fn from(f: sharing::Futuregram) -> Self {
        Self {
            share_id: f.share_id,
            situation_id: f.situation_id,
            folder_id: f.folder_id,
            folder_name: f.folder_name,
            copy_type: copy_type(f.copy_type),
            release_at: rfc3339(f.release_at),
            state: f.state,
            due_at: rfc3339(f.due_at),
            released_at: rfc3339(f.released_at),
            created_at: rfc3339(f.created_at),
            items: f
                .items
                .into_iter()
                .map(|i| FuturegramItem {
                    id: i.id,
                    name: i.name,
                    media_type: i.media_type,
                })
                .collect(),
            recipients: f
                .recipients
                .into_iter()
                .map(|r| FuturegramRecipient {
                    sent_to: r.sent_to,
                    channel: r.channel,
                })
                .collect(),
            executors: f
                .executors
                .into_iter()
                .map(|e| FuturegramExecutor {
                    id: e.id,
                    email: e.email,
                    phone: e.phone,
                    state: e.state,
                    release_requested: e.release_requested,
                    vetoed: e.vetoed,
                    responded_at: rfc3339(e.responded_at),
                })
                .collect(),
            recipients_paid: f.recipients_paid,
            payment_transaction_number: f.payment_transaction_number,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FuturegramCreated {
    pub futuregram: Futuregram,
    pub transaction: Transaction,
    pub stored_account: StoredAccount,
}

/// Buys a futuregram: a share released later (by `release_at`, or by its executors), paid now
/// like a share (same price and Idempotency-Key rules; a declined card is 402 and creates
/// nothing). Executors are invited by e-mail; its files cannot be deleted until the release.
#[utoipa::path(post, path = "/api/sharing/scheduled-shares/create/", tag = "sharing", security(("bearer" = [])),
    params(("Idempotency-Key" = String, Header)), request_body = FuturegramRequest,
    responses((status = 201, body = FuturegramCreated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_futuregram(
    State(state): State<AppState>,
    User(caller): User,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(body): ApiJson<FuturegramRequest>,
) -> ApiResult<Created<FuturegramCreated>> {
    let release_at = match body.release_at.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(value) => Some(
            chrono::DateTime::parse_from_rfc3339(value)
                .map(|t| timestamp(t.with_timezone(&chrono::Utc)))
                .map_err(|_| {
                    ApiError::field(
                        "release_at",
                        "Enter a date and time like 2026-12-31T18:00:00Z.",
                    )
                })?,
        ),
    };
    let created = state
        .sharing()
        .create_futuregram(caller.request(sharing::CreateFuturegramRequest {
            situation_id: body.situation_id,
            folder_id: body.folder_id,
            copy_type: body.copy_type.into(),
            item_ids: body.item_ids,
            recipients: recipients_pb(body.recipients),
            executors: executors_pb(body.executors),
            release_at,
            pay_with: body.pay_with,
            idempotency_key: key,
        }))
        .await
        .answer()?;
    let PayResponse {
        transaction,
        stored_account,
    } = created.payment.unwrap_or_default().into();
    Ok(Created(FuturegramCreated {
        futuregram: created.futuregram.unwrap_or_default().into(),
        transaction,
        stored_account,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SituationFuturegrams {
    pub situation_id: String,
    /// Oldest first.
    pub futuregrams: Vec<Futuregram>,
}

impl From<sharing::SituationFuturegrams> for SituationFuturegrams {
    fn from(found: sharing::SituationFuturegrams) -> Self {
        Self {
            situation_id: found.situation_id,
            futuregrams: found
                .futuregrams
                .into_iter()
                .map(Futuregram::from)
                .collect(),
        }
    }
}

forward! {
/// The caller's futuregrams of a capture situation, with each executor's answer.
#[utoipa::path(get, path = "/api/sharing/futuregram/situation/{situation_id}/", tag = "sharing", security(("bearer" = [])),
    params(("situation_id" = String, Path)),
    responses((status = 200, body = SituationFuturegrams), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn situation_futuregrams(path: String) -> SituationFuturegrams = sharing
    .list_situation_futuregrams(|id| sharing::ListSituationFuturegramsRequest { situation_id: id });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RecipientsUpdate {
    #[schema(min_items = 1, max_items = 20)]
    pub recipients: Vec<RecipientInput>,
}

forward! {
/// Replaces the recipients before the release (up to as many as were paid for).
#[utoipa::path(put, path = "/api/sharing/futuregram/{share_id}/recipients/update/", tag = "sharing", security(("bearer" = [])),
    params(("share_id" = String, Path)), request_body = RecipientsUpdate,
    responses((status = 200, body = Futuregram), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn update_futuregram_recipients(path: String, body: RecipientsUpdate) -> Futuregram =
    sharing.update_futuregram_recipients(|share_id, body| sharing::UpdateFuturegramRecipientsRequest {
        share_id,
        recipients: recipients_pb(body.recipients),
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExecutorsUpdate {
    #[schema(max_items = 10)]
    pub executors: Vec<ExecutorInput>,
}

forward! {
/// Sets the executors before the release: kept ones keep their answer, removed ones' links stop
/// working, new ones are invited.
#[utoipa::path(put, path = "/api/sharing/futuregram/{share_id}/executors/update/", tag = "sharing", security(("bearer" = [])),
    params(("share_id" = String, Path)), request_body = ExecutorsUpdate,
    responses((status = 200, body = Futuregram), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn update_futuregram_executors(path: String, body: ExecutorsUpdate) -> Futuregram =
    sharing.update_futuregram_executors(|share_id, body| sharing::UpdateFuturegramExecutorsRequest {
        share_id,
        executors: executors_pb(body.executors),
    });
}

forward! {
/// Cancels a release executors asked for, during its waiting period.
#[utoipa::path(post, path = "/api/sharing/futuregram/{share_id}/cancel-release/", tag = "sharing", security(("bearer" = [])),
    params(("share_id" = String, Path)),
    responses((status = 200, body = Futuregram), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn cancel_futuregram_release(path: String) -> Futuregram = sharing
    .cancel_futuregram_release(|share_id| sharing::CancelFuturegramReleaseRequest { share_id });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ExecutorResponse {
    /// The address the invitation was sent to.
    #[schema(max_length = 250)]
    pub email: String,
    /// `accepted` or `declined`; an accepted executor may also send `release` (ask for the
    /// release of a futuregram without a date) or `veto` (stop a dated one in its veto window).
    #[schema(max_length = 20)]
    pub action: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExecutorStanding {
    /// `invited`, `accepted` or `declined`.
    pub state: String,
    pub owner_name: String,
    pub folder_name: String,
    pub release_at: Option<String>,
    /// `pending`, `waiting`, `released` or `vetoed`.
    pub futuregram_state: String,
    /// Waiting: when the release happens; dated: when a veto becomes possible.
    pub due_at: Option<String>,
    pub release_requested: bool,
    pub can_request_release: bool,
    pub can_veto: bool,
}

impl From<sharing::ExecutorStanding> for ExecutorStanding {
    fn from(s: sharing::ExecutorStanding) -> Self {
        Self {
            state: s.state,
            owner_name: s.owner_name,
            folder_name: s.folder_name,
            release_at: rfc3339(s.release_at),
            futuregram_state: s.futuregram_state,
            due_at: rfc3339(s.due_at),
            release_requested: s.release_requested,
            can_request_release: s.can_request_release,
            can_veto: s.can_veto,
        }
    }
}

/// An executor answers from their invitation's link (open to anyone holding it).
#[utoipa::path(post, path = "/api/sharing/futuregram/executor/respond/{token}/", tag = "sharing",
    params(("token" = String, Path)), request_body = ExecutorResponse,
    responses((status = 200, body = ExecutorStanding), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn respond_as_executor(
    State(state): State<AppState>,
    ApiPath(token): ApiPath<String>,
    ApiJson(body): ApiJson<ExecutorResponse>,
) -> ApiResult<Json<ExecutorStanding>> {
    let request = sharing::RespondAsExecutorRequest {
        token,
        email: body.email,
        action: body.action,
    };
    state.sharing().respond_as_executor(request).await.reply()
}

/// A released futuregram's copies, by the recipient's view link (open to anyone holding it). An
/// expired link is 400 `link_expired`: ask for a fresh one.
#[utoipa::path(get, path = "/api/sharing/futuregram/view/{token}/", tag = "sharing",
    params(("token" = String, Path)),
    responses((status = 200, body = SharedFolder), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn view_futuregram(
    State(state): State<AppState>,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<Json<SharedFolder>> {
    state
        .sharing()
        .view_futuregram(sharing::ViewFuturegramRequest { token })
        .await
        .reply()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinkSent {
    /// Where the fresh link went, masked.
    pub sent_to: String,
}

impl From<sharing::FuturegramLinkSent> for LinkSent {
    fn from(sent: sharing::FuturegramLinkSent) -> Self {
        Self {
            sent_to: sent.sent_to_masked,
        }
    }
}

/// Sends a fresh view link to the recipient's own address in place of an expired one (the
/// link itself is never answered).
#[utoipa::path(post, path = "/api/sharing/futuregram/refresh-token/{token}/", tag = "sharing",
    params(("token" = String, Path)),
    responses((status = 202, body = LinkSent), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn refresh_futuregram_link(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<(StatusCode, Json<LinkSent>)> {
    let sent = state
        .sharing()
        .refresh_futuregram_link(sharing::RefreshFuturegramLinkRequest {
            token,
            client_ip: caller.client_ip.unwrap_or_default(),
        })
        .await
        .reply()?;
    Ok((StatusCode::ACCEPTED, sent))
}
