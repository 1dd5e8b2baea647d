//! The conversation of a share (spec §7 "Sharing", `sharing/shared/{sharingId}/chat/...` and
//! `sharing/sharing-with-chats/`): the owner writes signed in, a recipient with the access token
//! their code gave them (`X-Folder-Token`). docs/decisions.md "Chat" records the rules.

use axum::{
    Json,
    extract::{FromRef, FromRequestParts, State},
    http::{StatusCode, request::Parts},
};
use evidentia_common::grpc::Caller;
use evidentia_common::time::rfc3339;
use evidentia_proto::sharing::v1 as sharing;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area, sharing::FolderToken};
use crate::{
    auth::{MaybeUser, Sessions, User},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery, Client, caller_from, header_text},
    forward::{Created, Reply, forward},
};

/// Who reads a conversation: with `X-Folder-Token`, the recipient it names, whatever bearer
/// token also comes (a recipient may hold a stale sign-in of their own); without, the signed-in
/// owner.
struct Reader(Caller);

impl<S> FromRequestParts<S> for Reader
where
    S: Send + Sync,
    Sessions: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if !header_text(parts, "x-folder-token").is_empty() {
            Ok(Self(caller_from(parts)))
        } else {
            MaybeUser::from_request_parts(parts, state)
                .await
                .map(|MaybeUser(caller)| Self(caller))
        }
    }
}

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        get_chat,
        post_message,
        post_message_anonymous,
        archive_chat,
        list_chats
    ]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatMessage {
    pub id: String,
    /// The message's number in its conversation: ask for what came after the last one you have.
    pub seq: i64,
    /// The owner's name, or a recipient's masked address.
    pub author_name: String,
    pub from_owner: bool,
    /// Written by the caller.
    pub mine: bool,
    pub client_message_id: String,
    /// Plain text, as written.
    pub content: String,
    pub created_at: Option<String>,
}

impl From<sharing::ChatMessage> for ChatMessage {
    fn from(m: sharing::ChatMessage) -> Self {
        Self {
            id: m.id,
            seq: m.seq,
            author_name: m.author_name,
            from_owner: m.from_owner,
            mine: m.mine,
            client_message_id: m.client_message_id,
            content: m.content,
            created_at: rfc3339(m.created_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Chat {
    pub sharing_id: String,
    pub folder_name: String,
    /// The share was revoked: the conversation can be read, not added to.
    pub read_only: bool,
    /// The conversation's last number.
    pub last_seq: i64,
    /// Up to 200 messages after `after`, oldest first; when `last_seq` is beyond the last of
    /// them, ask again.
    pub messages: Vec<ChatMessage>,
}

impl From<sharing::Chat> for Chat {
    fn from(chat: sharing::Chat) -> Self {
        Self {
            sharing_id: chat.share_id,
            folder_name: chat.folder_name,
            read_only: chat.read_only,
            last_seq: chat.last_seq,
            messages: chat.messages.into_iter().map(ChatMessage::from).collect(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AfterQuery {
    /// Only messages numbered after this (default 0: from the first).
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after: Option<String>,
}

fn after(value: Option<&str>) -> Result<i64, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(0),
        Some(v) => v
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| ApiError::field("after", "Enter a whole number, 0 or more.")),
    }
}

/// The conversation of a share: its owner signed in, or a recipient with `X-Folder-Token`
/// (which wins when both come). Reading marks what it returns as read.
#[utoipa::path(get, path = "/api/sharing/shared/{sharing_id}/chat/", tag = "sharing", security((), ("bearer" = [])),
    params(("sharing_id" = String, Path), AfterQuery, ("X-Folder-Token" = Option<String>, Header)),
    responses((status = 200, body = Chat), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_chat(
    State(state): State<AppState>,
    Reader(caller): Reader,
    FolderToken(token): FolderToken,
    ApiPath(sharing_id): ApiPath<String>,
    ApiQuery(query): ApiQuery<AfterQuery>,
) -> ApiResult<Json<Chat>> {
    let request = sharing::GetChatRequest {
        share_id: sharing_id,
        access_token: token,
        after: after(query.after.as_deref())?,
    };
    state
        .sharing()
        .get_chat(caller.request(request))
        .await
        .reply()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MessageRequest {
    /// Plain text, 1 to 2,000 characters.
    #[schema(min_length = 1, max_length = 2000)]
    pub content: String,
    /// The sender's id for this message: sending again with the same id returns the message
    /// the first send made. Without it, every call is a new message.
    #[schema(min_length = 1, max_length = 64, pattern = r"^[A-Za-z0-9_-]+$")]
    pub client_message_id: Option<String>,
}

async fn post(
    state: &AppState,
    caller: &Caller,
    sharing_id: String,
    token: String,
    body: MessageRequest,
) -> ApiResult<Created<ChatMessage>> {
    let client_message_id = body
        .client_message_id
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    state
        .sharing()
        .post_chat_message(caller.request(sharing::PostChatMessageRequest {
            share_id: sharing_id,
            access_token: token,
            client_message_id,
            content: body.content,
        }))
        .await
        .reply()
}

/// The owner writes in the conversation of their share.
#[utoipa::path(post, path = "/api/sharing/shared/{sharing_id}/chat/messages/", tag = "sharing", security(("bearer" = [])),
    params(("sharing_id" = String, Path)), request_body = MessageRequest,
    responses((status = 201, body = ChatMessage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn post_message(
    State(state): State<AppState>,
    User(caller): User,
    ApiPath(sharing_id): ApiPath<String>,
    ApiJson(body): ApiJson<MessageRequest>,
) -> ApiResult<Created<ChatMessage>> {
    post(&state, &caller, sharing_id, String::new(), body).await
}

/// A recipient, not signed in, writes with the access token their code gave them. Limited per
/// token (20 a minute by default).
#[utoipa::path(post, path = "/api/sharing/shared/{sharing_id}/chat/messages/anonymous/", tag = "sharing",
    params(("sharing_id" = String, Path), ("X-Folder-Token" = String, Header)), request_body = MessageRequest,
    responses((status = 201, body = ChatMessage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn post_message_anonymous(
    State(state): State<AppState>,
    Client(caller): Client,
    FolderToken(token): FolderToken,
    ApiPath(sharing_id): ApiPath<String>,
    ApiJson(body): ApiJson<MessageRequest>,
) -> ApiResult<Created<ChatMessage>> {
    if token.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "folder_token_invalid",
            "Your access has ended. Open the link from your message again.",
        ));
    }
    post(&state, &caller, sharing_id, token, body).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ArchiveRequest {
    /// Must be true: the screen asked first.
    pub confirm: bool,
}

forward! {
/// The owner takes the conversation off their list (until a newer message arrives); the
/// recipients' side is unchanged.
#[utoipa::path(post, path = "/api/sharing/shared/{sharing_id}/chat/archive/", tag = "sharing", security(("bearer" = [])),
    params(("sharing_id" = String, Path)), request_body = ArchiveRequest,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn archive_chat(path: String, body: ArchiveRequest) -> NoContent =
    sharing.archive_chat(|share_id, body| sharing::ArchiveChatRequest { share_id, confirm: body.confirm });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatSummary {
    pub sharing_id: String,
    pub folder_id: String,
    pub folder_name: String,
    pub revoked: bool,
    pub last_seq: i64,
    pub last_message_at: Option<String>,
    pub last_author_name: String,
    pub last_content: String,
    /// Messages from the recipients the owner has not read.
    pub unread: i64,
}

impl From<sharing::ChatSummary> for ChatSummary {
    fn from(c: sharing::ChatSummary) -> Self {
        Self {
            sharing_id: c.share_id,
            folder_id: c.folder_id,
            folder_name: c.folder_name,
            revoked: c.revoked,
            last_seq: c.last_seq,
            last_message_at: rfc3339(c.last_message_at),
            last_author_name: c.last_author_name,
            last_content: c.last_content,
            unread: c.unread,
        }
    }
}

/// The caller's shares that have a conversation (not archived, or with news since), newest
/// first, with unread counts; at most 100.
#[utoipa::path(get, path = "/api/sharing/sharing-with-chats/", tag = "sharing", security(("bearer" = [])),
    responses((status = 200, body = Vec<ChatSummary>), (status = 401, body = ErrorBody)))]
async fn list_chats(
    State(state): State<AppState>,
    User(caller): User,
) -> ApiResult<Json<Vec<ChatSummary>>> {
    let list = state
        .sharing()
        .list_chats(caller.request(sharing::ListChatsRequest {}))
        .await
        .answer()?;
    Ok(Json(list.chats.into_iter().map(Into::into).collect()))
}
