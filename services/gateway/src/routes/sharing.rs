//! `sharing/...` (spec §7 "Sharing"): the owner's shares of a folder as watermarked copies, the
//! recipient's way in by a code sent to their own address, the shared views, and public
//! verification. docs/decisions.md "Sharing" records what each documented call means here.
//! Recipients present their access token in the `X-Folder-Token` header, never as a bearer.

use axum::{Json, extract::State};
use evidentia_common::time::rfc3339;
use evidentia_proto::sharing::v1 as sharing;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::PhoneNumber,
    area,
    contribution::{
        ContributionContents, ContributionDetails, ContributionToken, contributor_folder,
        details as contribution_details,
    },
    evidence::Receipt,
    payments::{PayResponse, StoredAccount, Transaction},
};
use crate::{
    auth::{MaybeUser, User},
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery, Client, IdempotencyKey, header_extractor},
    forward::{Created, NoContent, Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        share_folder,
        folder_details,
        folder_contents,
        authenticate_folder,
        revoke_share,
        create_url,
        send_access_code,
        check_access_code,
        view_authenticated,
        view_unauthenticated,
        copy_event,
        verify_number,
        verify_file
    ]
}

header_extractor! {
    /// The recipient's access token (`X-Folder-Token`), empty when absent.
    FolderToken = "x-folder-token"
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CopyType {
    Authenticated,
    Unauthenticated,
}

impl From<CopyType> for i32 {
    fn from(value: CopyType) -> Self {
        match value {
            CopyType::Authenticated => sharing::CopyType::Authenticated as i32,
            CopyType::Unauthenticated => sharing::CopyType::Unauthenticated as i32,
        }
    }
}

pub fn copy_type(value: i32) -> CopyType {
    if value == sharing::CopyType::Authenticated as i32 {
        CopyType::Authenticated
    } else {
        CopyType::Unauthenticated
    }
}

/// One recipient: an e-mail address or a phone number (a blank address beside a number counts as
/// not given). Both are refused on the recipient rather than one of them dropped.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(try_from = "RecipientFields")]
pub struct RecipientInput {
    #[schema(max_length = 250)]
    pub email: Option<String>,
    pub phone_number: Option<PhoneNumber>,
}

pub const BOTH_ADDRESSES: &str = "Give an e-mail address or a phone number, not both.";

#[derive(Deserialize)]
struct RecipientFields {
    email: Option<String>,
    phone_number: Option<PhoneNumber>,
}

impl RecipientInput {
    /// The address or the number given; both is [`BOTH_ADDRESSES`].
    pub fn new(
        email: Option<String>,
        phone_number: Option<PhoneNumber>,
    ) -> Result<Self, &'static str> {
        let email = email.filter(|e| phone_number.is_none() || !e.trim().is_empty());
        if email.is_some() && phone_number.is_some() {
            return Err(BOTH_ADDRESSES);
        }
        Ok(Self {
            email,
            phone_number,
        })
    }
}

impl TryFrom<RecipientFields> for RecipientInput {
    type Error = String;

    fn try_from(fields: RecipientFields) -> Result<Self, String> {
        Self::new(fields.email, fields.phone_number).map_err(crate::extract::refusal)
    }
}

pub fn phone_pb(phone: PhoneNumber) -> sharing::PhoneNumber {
    sharing::PhoneNumber {
        country_code: phone.country_code,
        national_number: phone.national_number,
    }
}

pub fn recipients_pb(list: Vec<RecipientInput>) -> Vec<sharing::Recipient> {
    list.into_iter()
        .map(|r| sharing::Recipient {
            address: match (r.email, r.phone_number) {
                (Some(email), _) => Some(sharing::recipient::Address::Email(email)),
                (None, Some(phone)) => {
                    Some(sharing::recipient::Address::PhoneNumber(phone_pb(phone)))
                }
                (None, None) => None,
            },
        })
        .collect()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareRequest {
    pub copy_type: CopyType,
    /// The files to share; empty or absent: the whole folder.
    #[serde(default)]
    #[schema(max_items = 500)]
    pub item_ids: Vec<String>,
    #[schema(min_items = 1, max_items = 20)]
    pub recipients: Vec<RecipientInput>,
    /// `wallet` or `card`.
    pub pay_with: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublicLink {
    pub url: String,
    pub active: bool,
}

impl From<sharing::PublicLink> for PublicLink {
    fn from(l: sharing::PublicLink) -> Self {
        Self {
            url: l.url,
            active: l.active,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShareRecipient {
    pub id: String,
    /// The full address (the owner sees it).
    pub sent_to: String,
    /// `email` or `sms`.
    pub channel: String,
    /// On this recipient's copies, e.g. `EVD-7K3Q-9XTM`.
    pub transaction_number: String,
    /// `sent`, `opened` (a code was asked for) or `code_checked`.
    pub state: String,
    pub copies_ready: i32,
    pub copies_total: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Share {
    pub id: String,
    pub folder_id: String,
    pub copy_type: CopyType,
    pub created_at: Option<String>,
    pub revoked_at: Option<String>,
    pub item_count: i32,
    /// The purchase's number (transaction info).
    pub payment_transaction_number: String,
    pub public_link: Option<PublicLink>,
    pub recipients: Vec<ShareRecipient>,
}

impl From<sharing::Share> for Share {
    fn from(s: sharing::Share) -> Self {
        Self {
            id: s.id,
            folder_id: s.folder_id,
            copy_type: copy_type(s.copy_type),
            created_at: rfc3339(s.created_at),
            revoked_at: rfc3339(s.revoked_at),
            item_count: s.item_count,
            payment_transaction_number: s.payment_transaction_number,
            public_link: s.public_link.map(Into::into),
            recipients: s
                .recipients
                .into_iter()
                .map(|r| ShareRecipient {
                    id: r.id,
                    sent_to: r.sent_to,
                    channel: r.channel,
                    transaction_number: r.transaction_number,
                    state: r.state,
                    copies_ready: r.copies_ready,
                    copies_total: r.copies_total,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShareCreated {
    pub share: Share,
    pub transaction: Transaction,
    pub stored_account: StoredAccount,
}

/// Buys and sends a share of the folder (or of chosen files) as authenticated or
/// unauthenticated copies: paid like a storage extension (wallet first, or the default card,
/// with the same Idempotency-Key rules; a declined card is 402 and creates nothing).
#[utoipa::path(post, path = "/api/sharing/folder/{folder_id}/share/", tag = "sharing", security(("bearer" = [])),
    params(("folder_id" = String, Path), ("Idempotency-Key" = String, Header)), request_body = ShareRequest,
    responses((status = 201, body = ShareCreated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn share_folder(
    State(state): State<AppState>,
    User(caller): User,
    ApiPath(folder_id): ApiPath<String>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(body): ApiJson<ShareRequest>,
) -> ApiResult<Created<ShareCreated>> {
    let recipients = recipients_pb(body.recipients);
    let created = state
        .sharing()
        .create_share(caller.request(sharing::CreateShareRequest {
            folder_id,
            copy_type: body.copy_type.into(),
            item_ids: body.item_ids,
            recipients,
            pay_with: body.pay_with,
            idempotency_key: key,
        }))
        .await
        .answer()?;
    let PayResponse {
        transaction,
        stored_account,
    } = created.payment.unwrap_or_default().into();
    Ok(Created(ShareCreated {
        share: created.share.unwrap_or_default().into(),
        transaction,
        stored_account,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FolderShares {
    pub folder_id: String,
    pub shares: Vec<Share>,
}

impl From<sharing::FolderShares> for FolderShares {
    fn from(found: sharing::FolderShares) -> Self {
        Self {
            folder_id: found.folder_id,
            shares: found.shares.into_iter().map(Into::into).collect(),
        }
    }
}

/// The folder's details: for its owner (signed in), its shares with each recipient's state; for
/// an anonymous contributor (`X-Contribution-Token`), the organization folder they send to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum FolderDetails {
    Shares(FolderShares),
    Contribution(ContributionDetails),
}

/// The folder's shares, newest first, with each recipient's state (the owner's controls); with a
/// contribution token instead, the organization folder as its contributor sees it.
#[utoipa::path(get, path = "/api/sharing/folder/{folder_id}/details/", tag = "sharing", security((), ("bearer" = [])),
    params(("folder_id" = String, Path), ("X-Contribution-Token" = Option<String>, Header)),
    responses((status = 200, body = FolderDetails), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn folder_details(
    State(state): State<AppState>,
    MaybeUser(caller): MaybeUser,
    ContributionToken(token): ContributionToken,
    ApiPath(folder_id): ApiPath<String>,
) -> ApiResult<Json<FolderDetails>> {
    if caller.user_id.is_none() && !token.is_empty() {
        let found = contributor_folder(&state, token, folder_id, None).await?;
        return Ok(Json(FolderDetails::Contribution(contribution_details(
            &found,
        ))));
    }
    caller.require_user()?;
    let found = state
        .sharing()
        .list_folder_shares(caller.request(sharing::ListFolderSharesRequest { folder_id }))
        .await
        .answer()?;
    Ok(Json(FolderDetails::Shares(found.into())))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CustodyEntry {
    pub seq: i64,
    /// `captured`, `uploaded`, `verified`, `shared`, `copy_generated`, `code_sent`,
    /// `code_checked`, `viewed`, `downloaded`, `revoked`, `chat_message`, `scheduled`, `released`
    /// or `packet_exported`.
    pub kind: String,
    pub at: Option<String>,
    pub detail: String,
    pub hash: String,
    pub prev_hash: String,
}

impl From<sharing::CustodyEntry> for CustodyEntry {
    fn from(e: sharing::CustodyEntry) -> Self {
        Self {
            seq: e.seq,
            kind: e.kind,
            at: rfc3339(e.at),
            detail: e.detail,
            hash: e.hash,
            prev_hash: e.prev_hash,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemCustody {
    pub item_id: String,
    pub name: String,
    pub media_type: String,
    /// Recipients the file was sent to (spec §3 sharedCounter).
    pub shared_counter: i32,
    /// Of those, the ones whose share is not revoked (spec §3 sharingAvailableCounter).
    pub sharing_available_counter: i32,
    pub custody: Vec<CustodyEntry>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FolderContents {
    pub items: Vec<ItemCustody>,
}

impl From<sharing::FolderCustody> for FolderContents {
    fn from(found: sharing::FolderCustody) -> Self {
        Self {
            items: found
                .items
                .into_iter()
                .map(|i| ItemCustody {
                    item_id: i.item_id,
                    name: i.name,
                    media_type: i.media_type,
                    shared_counter: i.shared_counter,
                    sharing_available_counter: i.sharing_available_counter,
                    custody: i.custody.into_iter().map(Into::into).collect(),
                })
                .collect(),
        }
    }
}

/// The folder's contents: for its owner, every file with its custody; for an anonymous
/// contributor, the steps with their own files.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum FolderContentsBody {
    Custody(FolderContents),
    Contribution(ContributionContents),
}

/// Every file of the folder with its sharing counters and its custody log; with a contribution
/// token instead, the organization folder's steps with the contributor's own files.
#[utoipa::path(get, path = "/api/sharing/folder/{folder_id}/contents/", tag = "sharing", security((), ("bearer" = [])),
    params(("folder_id" = String, Path), ("X-Contribution-Token" = Option<String>, Header)),
    responses((status = 200, body = FolderContentsBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn folder_contents(
    State(state): State<AppState>,
    MaybeUser(caller): MaybeUser,
    ContributionToken(token): ContributionToken,
    ApiPath(folder_id): ApiPath<String>,
) -> ApiResult<Json<FolderContentsBody>> {
    if caller.user_id.is_none() && !token.is_empty() {
        let found = contributor_folder(&state, token, folder_id, None).await?;
        return Ok(Json(FolderContentsBody::Contribution(
            ContributionContents {
                steps: found.steps.into_iter().map(Into::into).collect(),
            },
        )));
    }
    caller.require_user()?;
    let found = state
        .sharing()
        .get_folder_custody(caller.request(sharing::GetFolderCustodyRequest { folder_id }))
        .await
        .answer()?;
    Ok(Json(FolderContentsBody::Custody(found.into())))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ItemCheck {
    pub item_id: String,
    pub entries: i32,
    pub intact: bool,
    pub first_broken: Option<CustodyEntry>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CustodyCheck {
    pub items: Vec<ItemCheck>,
}

impl From<sharing::CustodyCheck> for CustodyCheck {
    fn from(found: sharing::CustodyCheck) -> Self {
        Self {
            items: found
                .items
                .into_iter()
                .map(|i| ItemCheck {
                    item_id: i.item_id,
                    entries: i.entries,
                    intact: i.intact,
                    first_broken: i.first_broken.map(Into::into),
                })
                .collect(),
        }
    }
}

forward! {
/// Checks the folder's custody: walks each file's hash chain and names the first entry that
/// does not hold.
#[utoipa::path(post, path = "/api/sharing/folder/{folder_id}/authenticate/", tag = "sharing", security(("bearer" = [])),
    params(("folder_id" = String, Path)),
    responses((status = 200, body = CustodyCheck), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn authenticate_folder(path: String) -> CustodyCheck =
    sharing.check_folder_custody(|folder_id| sharing::CheckFolderCustodyRequest { folder_id });
}

forward! {
/// Revokes a share: its recipients' access ends at once and its copies are deleted.
#[utoipa::path(post, path = "/api/sharing/shares/{share_id}/revoke/", tag = "sharing", security(("bearer" = [])),
    params(("share_id" = String, Path)),
    responses((status = 200, body = Share), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn revoke_share(path: String) -> Share =
    sharing.revoke_share(|share_id| sharing::RevokeShareRequest { share_id });
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActiveQuery {
    /// Turn the link on (true) or off (false).
    pub active: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateUrlRequest {
    pub share_id: String,
}

/// The public link of an unauthenticated share, turned on or off: whoever holds it sees the
/// share's unauthenticated copies while it is on.
#[utoipa::path(post, path = "/api/sharing/url/create/", tag = "sharing", security(("bearer" = [])),
    params(ActiveQuery), request_body = CreateUrlRequest,
    responses((status = 200, body = PublicLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn create_url(
    State(state): State<AppState>,
    User(caller): User,
    ApiQuery(query): ApiQuery<ActiveQuery>,
    ApiJson(body): ApiJson<CreateUrlRequest>,
) -> ApiResult<Json<PublicLink>> {
    let request = sharing::SetPublicLinkRequest {
        share_id: body.share_id,
        active: query.active,
    };
    state
        .sharing()
        .set_public_link(caller.request(request))
        .await
        .reply()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AccessCodeRequest {
    /// The two token segments of the link in the recipient's message.
    #[schema(max_length = 100)]
    pub t1: String,
    #[schema(max_length = 100)]
    pub t2: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CodeSent {
    pub code_id: String,
    /// Where the code went, masked.
    pub sent_to: String,
    pub copy_type: CopyType,
    /// Seconds.
    pub expires_in: i32,
}

impl From<sharing::AccessCodeSent> for CodeSent {
    fn from(sent: sharing::AccessCodeSent) -> Self {
        Self {
            code_id: sent.code_id,
            sent_to: sent.sent_to,
            copy_type: copy_type(sent.copy_type),
            expires_in: sent.expires_in,
        }
    }
}

/// Sends a 6-digit code to the address the share was sent to (the link alone opens nothing).
#[utoipa::path(post, path = "/api/sharing/code/send/", tag = "sharing", request_body = AccessCodeRequest,
    responses((status = 200, body = CodeSent), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn send_access_code(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<AccessCodeRequest>,
) -> ApiResult<Json<CodeSent>> {
    let request = sharing::SendAccessCodeRequest {
        t1: body.t1,
        t2: body.t2,
        client_ip: caller.client_ip.clone().unwrap_or_default(),
    };
    state
        .sharing()
        .send_access_code(caller.request(request))
        .await
        .reply()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CheckCodeRequest {
    /// Six digits (spec §3 "Confirmation code").
    #[schema(max_length = 20)]
    pub confirmation_code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccessGranted {
    /// Send it as `X-Folder-Token` (spec §3 loginInfo.accessFolderToken).
    pub access_folder_token: String,
    pub copy_type: CopyType,
    pub expires_at: Option<String>,
}

impl From<sharing::AccessGranted> for AccessGranted {
    fn from(granted: sharing::AccessGranted) -> Self {
        Self {
            access_folder_token: granted.access_folder_token,
            copy_type: copy_type(granted.copy_type),
            expires_at: rfc3339(granted.expires_at),
        }
    }
}

forward! {
/// Checks the code: single use, 10 minutes, 5 tries. Answers the access token.
#[utoipa::path(post, path = "/api/sharing/code/{code_id}/check/", tag = "sharing",
    params(("code_id" = String, Path)), request_body = CheckCodeRequest,
    responses((status = 200, body = AccessGranted), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn check_access_code(Client, path: String, body: CheckCodeRequest) -> AccessGranted =
    sharing.check_access_code(|code_id, body| sharing::CheckAccessCodeRequest {
        code_id,
        confirmation_code: body.confirmation_code,
    });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Watermark {
    pub copy_type: CopyType,
    /// Authenticated copies only.
    pub generated_for: Option<String>,
    pub sent_to: String,
    pub generated_on: Option<String>,
    pub transaction_number: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SharedCopy {
    pub id: String,
    pub name: String,
    /// `image`, `video` or `audio`.
    pub media_type: String,
    /// `preparing`, `ready`, `failed` or `expired`.
    pub state: String,
    /// A short-lived link to the copy (never the original), once ready.
    pub url: Option<String>,
    pub download_url: Option<String>,
    pub sha256: Option<String>,
    pub size_bytes: Option<i64>,
    pub duration: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SharedFolder {
    /// The share these copies belong to (its conversation: `sharing/shared/{sharing_id}/chat/`).
    pub sharing_id: String,
    pub folder_name: String,
    pub copy_type: CopyType,
    pub watermark: Watermark,
    pub items: Vec<SharedCopy>,
}

impl From<sharing::SharedFolder> for SharedFolder {
    fn from(f: sharing::SharedFolder) -> Self {
        let w = f.watermark.unwrap_or_default();
        Self {
            sharing_id: f.share_id,
            folder_name: f.folder_name,
            copy_type: copy_type(f.copy_type),
            watermark: Watermark {
                copy_type: copy_type(w.copy_type),
                generated_for: w.generated_for,
                sent_to: w.sent_to,
                generated_on: rfc3339(w.generated_on),
                transaction_number: w.transaction_number,
            },
            items: f
                .items
                .into_iter()
                .map(|c| SharedCopy {
                    id: c.id,
                    name: c.name,
                    media_type: c.media_type,
                    state: c.state,
                    url: c.url,
                    download_url: c.download_url,
                    sha256: c.sha256,
                    size_bytes: c.size_bytes,
                    duration: c.duration,
                })
                .collect(),
        }
    }
}

async fn view(
    state: &AppState,
    token: String,
    link: String,
    wanted: CopyType,
) -> ApiResult<Json<SharedFolder>> {
    let request = sharing::ViewSharedRequest {
        access_token: token,
        link,
        copy_type: wanted.into(),
    };
    state.sharing().view_shared(request).await.reply()
}

/// The recipient's authenticated copies (the access token in `X-Folder-Token`).
#[utoipa::path(get, path = "/api/sharing/view/authenticated/", tag = "sharing",
    params(("X-Folder-Token" = String, Header)),
    responses((status = 200, body = SharedFolder), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn view_authenticated(
    State(state): State<AppState>,
    FolderToken(token): FolderToken,
) -> ApiResult<Json<SharedFolder>> {
    view(&state, token, String::new(), CopyType::Authenticated).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    /// A public link's token; without it, the `X-Folder-Token` header.
    #[param(max_length = 200)]
    pub link: Option<String>,
}

/// Unauthenticated copies: by a public link (`?link=`), or the recipient's access token.
#[utoipa::path(get, path = "/api/sharing/view/", tag = "sharing",
    params(LinkQuery, ("X-Folder-Token" = Option<String>, Header)),
    responses((status = 200, body = SharedFolder), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn view_unauthenticated(
    State(state): State<AppState>,
    FolderToken(token): FolderToken,
    ApiQuery(query): ApiQuery<LinkQuery>,
) -> ApiResult<Json<SharedFolder>> {
    let link = query.link.unwrap_or_default();
    let token = if link.is_empty() {
        token
    } else {
        String::new()
    };
    view(&state, token, link, CopyType::Unauthenticated).await
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CopyEventQuery {
    /// A public link's token; without it, the `X-Folder-Token` header.
    #[param(max_length = 200)]
    pub link: Option<String>,
    /// A released futuregram's view link token, in place of both.
    #[param(max_length = 200)]
    pub futuregram: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CopyEventRequest {
    /// `viewed` or `downloaded`.
    #[schema(max_length = 20)]
    pub kind: String,
}

/// A recipient opened or downloaded a copy (the file's custody log says so).
#[utoipa::path(post, path = "/api/sharing/copies/{copy_id}/events/", tag = "sharing",
    params(("copy_id" = String, Path), CopyEventQuery, ("X-Folder-Token" = Option<String>, Header)),
    request_body = CopyEventRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn copy_event(
    State(state): State<AppState>,
    FolderToken(token): FolderToken,
    ApiPath(copy_id): ApiPath<String>,
    ApiQuery(query): ApiQuery<CopyEventQuery>,
    ApiJson(body): ApiJson<CopyEventRequest>,
) -> ApiResult<NoContent> {
    let futuregram_token = query.futuregram.unwrap_or_default();
    let link = query.link.unwrap_or_default();
    let token = if link.is_empty() && futuregram_token.is_empty() {
        token
    } else {
        String::new()
    };
    state
        .sharing()
        .record_copy_event(sharing::RecordCopyEventRequest {
            access_token: token,
            link,
            copy_id,
            kind: body.kind,
            futuregram_token,
        })
        .await
        .reply()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifiedItem {
    pub name: String,
    pub media_type: String,
    pub copy_sha256: Option<String>,
    pub original_sha256: String,
    pub captured_at: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    /// When the server received the original.
    pub received_at: Option<String>,
    /// The original's signed receipt when it was shared (null for files verified before
    /// receipts were signed), checked with the keys at `/api/.well-known/receipt-keys`.
    pub receipt: Option<Receipt>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Verification {
    pub transaction_number: String,
    pub copy_type: CopyType,
    pub generated_for: Option<String>,
    /// Masked.
    pub sent_to: String,
    pub generated_on: Option<String>,
    pub revoked: bool,
    pub items: Vec<VerifiedItem>,
    /// For a file lookup: the item the file is a copy of.
    pub matched_item_index: Option<i32>,
}

impl From<sharing::Verification> for Verification {
    fn from(v: sharing::Verification) -> Self {
        Self {
            transaction_number: v.transaction_number,
            copy_type: copy_type(v.copy_type),
            generated_for: v.generated_for,
            sent_to: v.sent_to,
            generated_on: rfc3339(v.generated_on),
            revoked: v.revoked,
            matched_item_index: v.matched_item_index,
            items: v
                .items
                .into_iter()
                .map(|i| VerifiedItem {
                    name: i.name,
                    media_type: i.media_type,
                    copy_sha256: i.copy_sha256,
                    original_sha256: i.original_sha256,
                    captured_at: rfc3339(i.captured_at),
                    latitude: i.latitude,
                    longitude: i.longitude,
                    city: i.city,
                    address: i.address,
                    received_at: rfc3339(i.received_at),
                    receipt: i.receipt.map(Receipt::from),
                })
                .collect(),
        }
    }
}

async fn verify(
    state: &AppState,
    client_ip: Option<String>,
    by: sharing::verify_request::By,
) -> ApiResult<Json<Verification>> {
    let request = sharing::VerifyRequest {
        by: Some(by),
        client_ip: client_ip.unwrap_or_default(),
    };
    state.sharing().verify(request).await.reply()
}

/// What a transaction number stands for (open to anyone; limited per client).
#[utoipa::path(get, path = "/api/sharing/verify/{transaction_number}/", tag = "sharing",
    params(("transaction_number" = String, Path)),
    responses((status = 200, body = Verification), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn verify_number(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiPath(number): ApiPath<String>,
) -> ApiResult<Json<Verification>> {
    verify(
        &state,
        caller.client_ip,
        sharing::verify_request::By::TransactionNumber(number),
    )
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VerifyFileRequest {
    /// The file's SHA-256 as 64 hex digits (hashed in the browser; the file is never sent).
    #[schema(pattern = "^[0-9a-fA-F]{64}$")]
    pub sha256: String,
}

/// Whether a file (by its SHA-256) is byte-identical to a copy we issued, and what for.
#[utoipa::path(post, path = "/api/sharing/verify/file/", tag = "sharing", request_body = VerifyFileRequest,
    responses((status = 200, body = Verification), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn verify_file(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<VerifyFileRequest>,
) -> ApiResult<Json<Verification>> {
    verify(
        &state,
        caller.client_ip,
        sharing::verify_request::By::Sha256(body.sha256),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipients(body: &str) -> Result<Vec<RecipientInput>, (Option<String>, String)> {
        crate::extract::parse::<ShareRequest>(body.as_bytes())
            .map(|request| request.recipients)
            .map_err(|err| (err.errors[0].field.clone(), err.errors[0].message.clone()))
    }

    #[test]
    fn a_recipient_is_an_address_or_a_number_never_both_with_one_dropped() {
        let body = |recipient: &str| {
            format!(
                r#"{{"copy_type": "authenticated", "pay_with": "wallet", "recipients": [{{"email": "a@example.com"}}, {recipient}]}}"#
            )
        };
        let phone = r#""phone_number": {"country_code": "+1", "national_number": "5551234567"}"#;
        assert_eq!(
            recipients(&body(&format!(r#"{{"email": "b@example.com", {phone}}}"#))).unwrap_err(),
            (Some("recipients[1]".to_owned()), BOTH_ADDRESSES.to_owned())
        );
        // A blank address beside a number is the number alone.
        let number = recipients(&body(&format!(r#"{{"email": " ", {phone}}}"#))).unwrap();
        assert!(number[1].email.is_none());
        assert_eq!(
            number[1].phone_number.as_ref().unwrap().national_number,
            "5551234567"
        );
        let address = recipients(&body(r#"{"email": "b@example.com"}"#)).unwrap();
        assert_eq!(address[1].email.as_deref(), Some("b@example.com"));
    }
}
