//! Evidence packets (not in the documented calls; docs/decisions.md "Evidence packets"): the
//! owner asks for a packet of a folder or of chosen files, a recipient for the copies they
//! received, and gets a short-lived link, which a browser follows like any download; the ZIP
//! streams from the sharing service as it is written.

use axum::{
    body::Body,
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use evidentia_common::time::rfc3339;
use evidentia_proto::sharing::v1 as sharing;
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area, sharing::FolderToken};
use crate::{
    auth::User,
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    forward::{Created, Reply},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![create_packet, create_recipient_packet, download_packet]
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PacketRequest {
    /// Files of the folder to put in the packet; none: every verified file.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub item_ids: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PacketLink {
    /// Where the packet downloads from (no bearer token needed) until `expires_at`.
    pub url: String,
    pub expires_at: Option<String>,
}

/// A link to the folder's evidence packet: a ZIP of its verified files (or the chosen ones) with
/// their signed receipts, custody logs and signed log heads, a signed manifest, the public keys,
/// `VERIFY.md` and `verify.sh`, which checks it all offline with `sha256sum` and `openssl`.
#[utoipa::path(post, path = "/api/sharing/folder/{folder_id}/packet/", tag = "sharing", security(("bearer" = [])),
    params(("folder_id" = String, Path)), request_body = PacketRequest,
    responses((status = 201, body = PacketLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn create_packet(
    State(state): State<AppState>,
    User(caller): User,
    ApiPath(folder_id): ApiPath<String>,
    ApiJson(body): ApiJson<PacketRequest>,
) -> ApiResult<Created<PacketLink>> {
    let link = state
        .sharing()
        .create_packet_download(caller.request(sharing::CreatePacketDownloadRequest {
            folder_id,
            item_ids: body.item_ids,
        }))
        .await
        .answer()?;
    Ok(Created(link.into()))
}

impl From<sharing::PacketDownload> for PacketLink {
    fn from(link: sharing::PacketDownload) -> Self {
        Self {
            url: format!("/api/sharing/packets/{}/", link.token),
            expires_at: rfc3339(link.expires_at),
        }
    }
}

/// A link to the evidence packet of the copies the recipient received (their access token in
/// `X-Folder-Token`): the copies, their originals' signed receipts, the custody logs (entries
/// about other recipients give only their place in the chain), signed heads and `verify.sh`.
/// 400 (field `copies`) while no copy is ready yet.
#[utoipa::path(post, path = "/api/sharing/view/packet/", tag = "sharing",
    params(("X-Folder-Token" = String, Header)),
    responses((status = 201, body = PacketLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn create_recipient_packet(
    State(state): State<AppState>,
    FolderToken(access_token): FolderToken,
) -> ApiResult<Created<PacketLink>> {
    let link = state
        .sharing()
        .create_recipient_packet_download(sharing::CreateRecipientPacketDownloadRequest {
            access_token,
        })
        .await
        .answer()?;
    Ok(Created(link.into()))
}

/// The evidence packet a link opens, streamed as `application/zip`. An unknown or expired link
/// is 404, a folder whose storage date passed since is 400 (`storage_expired`); a file that cannot be read mid-way ends the download unfinished, so it is not mistaken
/// for a whole packet.
#[utoipa::path(get, path = "/api/sharing/packets/{token}/", tag = "sharing",
    params(("token" = String, Path)),
    responses((status = 200, content_type = "application/zip", body = Vec<u8>),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn download_packet(
    State(state): State<AppState>,
    ApiPath(token): ApiPath<String>,
) -> ApiResult<Response> {
    let mut stream = state
        .sharing()
        .download_packet(sharing::DownloadPacketRequest { token })
        .await
        .answer()?;
    // The first message names the file: until it comes, an error is still an API error.
    let first = stream.message().await?.unwrap_or_default();
    let body = Body::from_stream(stream.map(|chunk| chunk.map(|c| c.data)));
    let disposition = HeaderValue::from_str(&format!(
        "attachment; filename=\"{}\"",
        first.file_name.replace(['"', '\\'], "")
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment; filename=\"evidence-packet.zip\""));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/zip"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response())
}
