//! `evidence/...`: the owner's folders, files and their uploads. Spec §7 does not show these
//! calls; they follow the documented ones (snake_case bodies, trailing slashes, bearer auth), and
//! docs/decisions.md records the design.

use std::collections::BTreeMap;

use axum::{Json, extract::State};
use base64::{Engine as _, engine::general_purpose::STANDARD};
use evidentia_common::time::{rfc3339, timestamp};
use evidentia_proto::evidence::v1 as evidence;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};
use crate::{
    auth::User,
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath},
    forward::{Created, Reply, forward, lists},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        storage_usage,
        list_folders,
        create_folder,
        get_folder,
        rename_folder,
        delete_folder,
        list_items,
        create_item,
        part_urls,
        finish_upload,
        get_item,
        rename_item,
        delete_item,
        download_item,
        retake_item,
        receipt_keys
    ]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StorageUsage {
    /// Bytes of all the user's verified files.
    pub used_bytes: i64,
    pub file_count: i64,
    pub folder_count: i64,
}

impl From<evidence::StorageUsage> for StorageUsage {
    fn from(usage: evidence::StorageUsage) -> Self {
        Self {
            used_bytes: usage.used_bytes,
            file_count: usage.file_count,
            folder_count: usage.folder_count,
        }
    }
}

forward! {
/// How much the signed-in user stores.
#[utoipa::path(get, path = "/api/evidence/storage-usage/", tag = "evidence", security(("bearer" = [])),
    responses((status = 200, body = StorageUsage), (status = 401, body = ErrorBody)))]
fn storage_usage() -> StorageUsage =
    evidence.get_storage_usage(evidence::GetStorageUsageRequest {});
}

/// A folder with its storage date (spec §2 "Tag chips": expire soon, expired).
#[derive(Debug, Serialize, ToSchema)]
pub struct Folder {
    pub id: String,
    pub name: String,
    /// RFC 3339.
    pub created_at: Option<String>,
    /// The storage date, RFC 3339.
    pub expiration_date: Option<String>,
    pub expired: bool,
    pub expire_soon: bool,
    pub file_count: i64,
    /// Bytes of the folder's verified files.
    pub used_bytes: i64,
    /// The rental this folder captures; null for an ordinary folder.
    pub rental: Option<Rental>,
}

/// `vehicle` or `hotel`.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(
    dead_code,
    reason = "the schema of a string field the evidence service validates"
)]
pub enum RentalKind {
    Vehicle,
    Hotel,
}

/// The vehicle of a vehicle rental.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(
    dead_code,
    reason = "the schema of a string field the evidence service validates"
)]
pub enum VehicleType {
    Car,
    Suv,
    Watercraft,
    Trailer,
    Truck,
}

/// Pick-up or return.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "snake_case")]
#[allow(
    dead_code,
    reason = "the schema of a string field the evidence service validates"
)]
pub enum RentalMoment {
    Pickup,
    Return,
}

/// A vehicle or hotel rental captured at pick-up or at return. Captures in a rental folder have a
/// `section`: vehicle `body`, `interior`, `mileage`, `fuel`; hotel `room`, `bathroom`, `bed`,
/// `furniture`, `appliances`, `damage`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Rental {
    #[schema(value_type = RentalKind)]
    pub kind: String,
    /// Required for a vehicle; absent for a hotel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<VehicleType>, required = false)]
    pub vehicle_type: Option<String>,
    #[schema(value_type = RentalMoment)]
    pub moment: String,
    /// A return's pick-up folder: the same user's pick-up of the same kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub pickup_folder_id: Option<String>,
}

impl From<evidence::Rental> for Rental {
    fn from(r: evidence::Rental) -> Self {
        Self {
            kind: r.kind,
            vehicle_type: r.vehicle_type,
            moment: r.moment,
            pickup_folder_id: r.pickup_folder_id,
        }
    }
}

impl From<Rental> for evidence::Rental {
    fn from(r: Rental) -> Self {
        Self {
            kind: r.kind,
            vehicle_type: r.vehicle_type,
            moment: r.moment,
            pickup_folder_id: r.pickup_folder_id,
        }
    }
}

impl From<evidence::Folder> for Folder {
    fn from(f: evidence::Folder) -> Self {
        Self {
            id: f.id,
            name: f.name,
            created_at: rfc3339(f.created_at),
            expiration_date: rfc3339(f.storage_expires_at),
            expired: f.expired,
            expire_soon: f.expire_soon,
            file_count: f.file_count,
            used_bytes: f.used_bytes,
            rental: f.rental.map(Into::into),
        }
    }
}

lists! {
FolderList from evidence::ListFoldersResponse {
    folders: Folder,
}
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FolderFilter {
    /// Only the return folders of this pick-up folder (to show them side by side).
    #[param(value_type = Option<uuid::Uuid>)]
    pub pickup_folder_id: Option<String>,
}

forward! {
/// The signed-in user's folders, newest first; with `pickup_folder_id`, the returns of that
/// pick-up folder.
#[utoipa::path(get, path = "/api/evidence/folders/", tag = "evidence", security(("bearer" = [])),
    params(FolderFilter),
    responses((status = 200, body = FolderList), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn list_folders(query: FolderFilter) -> FolderList = evidence.list_folders(|filter| {
    evidence::ListFoldersRequest { pickup_folder_id: filter.pickup_folder_id }
});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewName {
    /// A folder or file name: 2 to 50 letters, digits, spaces and , - _ ` | . ' " (spec §5 "File name").
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewFolder {
    /// A folder name: 2 to 50 letters, digits, spaces and , - _ ` | . ' " (spec §5 "File name").
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    /// The device's id for this folder: creating again with it answers the same folder.
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub client_id: Option<String>,
    /// Present for a vehicle or hotel rental capture.
    #[schema(required = false)]
    pub rental: Option<Rental>,
}

forward! {
/// Creates a folder with the default storage period. With a `client_id` the owner already used,
/// answers that folder (201 again) instead of making another.
#[utoipa::path(post, path = "/api/evidence/folders/create/", tag = "evidence", security(("bearer" = [])),
    request_body = NewFolder,
    responses((status = 201, body = Folder), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
fn create_folder(body: NewFolder) -> Created<Folder> =
    evidence.create_folder(|body| evidence::CreateFolderRequest {
        name: body.name,
        client_id: body.client_id,
        rental: body.rental.map(Into::into),
    });
}

forward! {
/// One folder with its storage date and usage.
#[utoipa::path(get, path = "/api/evidence/folders/{folder_id}/", tag = "evidence", security(("bearer" = [])),
    params(("folder_id" = String, Path)),
    responses((status = 200, body = Folder), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn get_folder(path: String) -> Folder =
    evidence.get_folder(|folder_id| evidence::GetFolderRequest { folder_id });
}

forward! {
/// Renames a folder (spec §5 "File name").
#[utoipa::path(patch, path = "/api/evidence/folders/{folder_id}/rename/", tag = "evidence", security(("bearer" = [])),
    params(("folder_id" = String, Path)), request_body = NewName,
    responses((status = 200, body = Folder), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn rename_folder(path: String, body: NewName) -> Folder = evidence
    .rename_folder(|folder_id, body| evidence::RenameFolderRequest { folder_id, name: body.name });
}

forward! {
/// Deletes a folder and its files.
#[utoipa::path(delete, path = "/api/evidence/folders/{folder_id}/delete/", tag = "evidence", security(("bearer" = [])),
    params(("folder_id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn delete_folder(path: String) -> NoContent =
    evidence.delete_folder(|folder_id| evidence::DeleteFolderRequest { folder_id });
}

/// An evidence item (spec §3 "File").
#[derive(Debug, Serialize, ToSchema)]
pub struct Item {
    pub id: String,
    pub folder_id: String,
    pub name: String,
    /// `image`, `video` or `audio`.
    pub media_type: String,
    pub mime_type: String,
    pub file_size: i64,
    /// Lower-case hex SHA-256 the device computed at capture.
    pub sha256: String,
    /// `awaiting_upload`, `uploaded`, `verified` or `rejected`.
    pub status: String,
    pub rejection_reason: String,
    /// The stored bytes were received (and are being or have been checked).
    pub uploaded: bool,
    /// When the service received the file, RFC 3339.
    pub uploaded_at: Option<String>,
    pub verified_at: Option<String>,
    /// When the device captured it, RFC 3339.
    pub captured_at: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    /// The nearest city, from reverse geocoding the coordinates.
    pub city: String,
    /// City, region, country code.
    pub address: String,
    /// ISO 3166-1 alpha-2.
    pub country_code: String,
    /// Seconds, for video and audio.
    pub duration: Option<f64>,
    /// Presigned GET of the thumbnail (15 minutes), once made; absent when the folder expired.
    pub thumbnail: Option<String>,
    /// Presigned GET of the file (15 minutes); absent until stored and when the folder expired.
    pub temporary_file_url: Option<String>,
    /// The folder's storage date, RFC 3339.
    pub expiration_date: Option<String>,
    /// The storage date has passed: the file cannot be opened ('Please extend your Storage Date
    /// for this file.').
    pub expired: bool,
    pub expire_soon: bool,
    /// The device's id for the capture, when it sent one.
    #[schema(value_type = Option<uuid::Uuid>)]
    pub client_id: Option<String>,
    /// The rental section of the capture (`body`, `interior`, ... / `room`, `bathroom`, ...).
    pub section: Option<String>,
    /// A new capture may replace this one (`items/{id}/retake/`): the folder has not expired.
    pub can_retake: bool,
    /// The step of an organization folder the file belongs to.
    pub step_id: Option<String>,
    /// An anonymous contribution's triage: `pending`, `accepted` or `declined`; null for a
    /// participant's own capture.
    pub review_state: Option<String>,
    /// The e-mail address an anonymous contributor proved.
    pub contributor_email: Option<String>,
    /// The signed receipt of a verified file; null before verification and for files verified
    /// before receipts were signed.
    pub receipt: Option<Receipt>,
}

/// A signed receipt (docs/decisions.md "Signed receipts").
#[derive(Debug, Serialize, ToSchema)]
pub struct Receipt {
    /// The exact bytes signed: canonical JSON of `captured_at`, `item_id`, `key_id`,
    /// `media_type`, `owner` (opaque), `place`, `received_at`, `sha256`, `size` and `version`.
    pub payload: String,
    /// The Ed25519 signature of `payload`, standard base64.
    pub signature: String,
    /// The key among `/api/.well-known/receipt-keys` that signed it.
    pub key_id: String,
    /// When a time-stamping authority is configured and has answered: its RFC 3161 token (DER,
    /// standard base64) over the SHA-256 of the raw signature, checked against
    /// `timestamp_authority_pem` of the keys.
    pub timestamp: Option<String>,
    /// The time the token states.
    pub timestamped_at: Option<String>,
}

impl From<evidence::Receipt> for Receipt {
    fn from(r: evidence::Receipt) -> Self {
        Self {
            payload: r.payload,
            signature: r.signature,
            key_id: r.key_id,
            timestamp: (!r.timestamp_token.is_empty()).then(|| STANDARD.encode(&r.timestamp_token)),
            timestamped_at: rfc3339(r.timestamped_at),
        }
    }
}

/// A public key receipts are checked with.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptKey {
    pub id: String,
    /// `Ed25519`.
    pub algorithm: String,
    /// SubjectPublicKeyInfo PEM (`openssl pkeyutl -verify -pubin -inkey key.pem -rawin`).
    pub pem: String,
    /// The raw 32-byte public key, standard base64 (WebCrypto's `raw` import).
    pub raw: String,
    /// The key new receipts are signed with; the others were retired by a rotation.
    pub current: bool,
}

impl From<evidence::ReceiptKey> for ReceiptKey {
    fn from(k: evidence::ReceiptKey) -> Self {
        Self {
            id: k.id,
            algorithm: k.algorithm,
            pem: k.pem,
            raw: k.raw,
            current: k.current,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptKeys {
    /// The current key first.
    pub keys: Vec<ReceiptKey>,
    /// The CA certificate (PEM) receipts' timestamps check against; null when receipts are not
    /// timestamped.
    pub timestamp_authority_pem: Option<String>,
}

impl From<evidence::ReceiptKeys> for ReceiptKeys {
    fn from(k: evidence::ReceiptKeys) -> Self {
        Self {
            keys: k.keys.into_iter().map(Into::into).collect(),
            timestamp_authority_pem: Some(k.timestamp_authority_pem).filter(|pem| !pem.is_empty()),
        }
    }
}

forward! {
/// The public keys of signed receipts, current and retired (open to anyone: a receipt is checked
/// without an account).
#[utoipa::path(get, path = "/api/.well-known/receipt-keys", tag = "evidence",
    responses((status = 200, body = ReceiptKeys)))]
fn receipt_keys(Client) -> ReceiptKeys =
    evidence.list_receipt_keys(evidence::ListReceiptKeysRequest {});
}

impl From<evidence::Item> for Item {
    fn from(i: evidence::Item) -> Self {
        let media_type = match evidence::MediaType::try_from(i.media_type) {
            Ok(evidence::MediaType::Image) => "image",
            Ok(evidence::MediaType::Video) => "video",
            Ok(evidence::MediaType::Audio) => "audio",
            _ => "",
        };
        let status = match evidence::ItemStatus::try_from(i.status) {
            Ok(evidence::ItemStatus::AwaitingUpload) => "awaiting_upload",
            Ok(evidence::ItemStatus::Uploaded) => "uploaded",
            Ok(evidence::ItemStatus::Verified) => "verified",
            Ok(evidence::ItemStatus::Rejected) => "rejected",
            _ => "",
        };
        Self {
            id: i.id,
            folder_id: i.folder_id,
            name: i.name,
            media_type: media_type.to_owned(),
            mime_type: i.mime_type,
            file_size: i.file_size,
            sha256: i.sha256,
            uploaded: matches!(status, "uploaded" | "verified"),
            status: status.to_owned(),
            rejection_reason: i.rejection_reason,
            uploaded_at: rfc3339(i.received_at),
            verified_at: rfc3339(i.verified_at),
            captured_at: rfc3339(i.captured_at),
            latitude: i.latitude,
            longitude: i.longitude,
            city: i.city,
            address: i.address,
            country_code: i.country_code,
            duration: i.duration_seconds,
            thumbnail: i.thumbnail_url,
            temporary_file_url: i.file_url,
            expiration_date: rfc3339(i.expiration_date),
            expired: i.expired,
            expire_soon: i.expire_soon,
            client_id: i.client_id,
            section: i.section,
            can_retake: i.can_retake,
            step_id: i.step_id,
            review_state: i.review_state,
            contributor_email: i.contributor_email,
            receipt: i.receipt.map(Into::into),
        }
    }
}

lists! {
ItemList from evidence::ListItemsResponse {
    items: Item,
}
}

forward! {
/// The files of a folder, oldest first.
#[utoipa::path(get, path = "/api/evidence/folders/{folder_id}/items/", tag = "evidence", security(("bearer" = [])),
    params(("folder_id" = String, Path)),
    responses((status = 200, body = ItemList), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn list_items(path: String) -> ItemList =
    evidence.list_items(|folder_id| evidence::ListItemsRequest { folder_id });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewItem {
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    /// `image`, `video` or `audio`.
    pub media_type: String,
    #[schema(max_length = 100)]
    pub mime_type: String,
    /// Bytes: 1 to the service's `MAX_FILE_BYTES` (10 GiB by default).
    #[schema(minimum = 1, maximum = 10737418240.0)]
    pub file_size: i64,
    /// Lower-case hex SHA-256 computed on the device.
    #[schema(pattern = r"^[0-9a-f]{64}$")]
    pub sha256: String,
    /// When the device captured it, RFC 3339.
    pub captured_at: Option<String>,
    #[schema(minimum = -90, maximum = 90)]
    pub latitude: Option<f64>,
    #[schema(minimum = -180, maximum = 180)]
    pub longitude: Option<f64>,
    /// Seconds, for video and audio: a finite number from 0 to 86400 (24 hours).
    #[schema(minimum = 0, maximum = 86_400)]
    pub duration: Option<f64>,
    /// The device's id for the capture: creating again with it in the same folder answers the
    /// same item and its unfinished upload (to resume), or no upload once it is in.
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub client_id: Option<String>,
    /// Required in a rental folder, one of its kind's sections; absent elsewhere.
    #[schema(required = false)]
    pub section: Option<String>,
    /// Required in an organization folder: the step the file is for; absent elsewhere.
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub step_id: Option<String>,
}

/// How to send the bytes: one presigned POST (`single`), or parts (`multipart`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Upload {
    /// POST `fields`, then the file as the last field `file`, to `url` (multipart/form-data).
    Single {
        url: String,
        fields: BTreeMap<String, String>,
        expires_at: Option<String>,
    },
    /// Ask `multipart-upload/part-urls/` for presigned PUT URLs of parts 1..=part_count.
    Multipart {
        upload_id: String,
        part_size: i64,
        part_count: i32,
    },
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedItem {
    pub item: Item,
    /// Null when the item's bytes are already in (an idempotent create of a stored item).
    pub upload: Option<Upload>,
}

/// Registers a capture in a folder and starts its upload straight to the media store.
#[utoipa::path(post, path = "/api/evidence/folders/{folder_id}/items/create/", tag = "evidence", security(("bearer" = [])),
    params(("folder_id" = String, Path)), request_body = NewItem,
    responses((status = 201, body = CreatedItem), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn create_item(
    State(state): State<AppState>,
    User(caller): User,
    ApiPath(folder_id): ApiPath<String>,
    ApiJson(body): ApiJson<NewItem>,
) -> ApiResult<Created<CreatedItem>> {
    let media_type = match body.media_type.as_str() {
        "image" => evidence::MediaType::Image,
        "video" => evidence::MediaType::Video,
        "audio" => evidence::MediaType::Audio,
        _ => evidence::MediaType::Unspecified,
    };
    let captured_at = captured_at(body.captured_at.as_deref())?;
    let created = state
        .evidence()
        .create_item(caller.request(evidence::CreateItemRequest {
            folder_id,
            name: body.name,
            media_type: media_type as i32,
            mime_type: body.mime_type,
            file_size: body.file_size,
            sha256: body.sha256,
            captured_at,
            latitude: body.latitude,
            longitude: body.longitude,
            duration_seconds: body.duration,
            client_id: body.client_id,
            section: body.section,
            step_id: body.step_id,
        }))
        .await
        .answer()?;
    Ok(Created(created_item(created)?))
}

pub(crate) fn captured_at(text: Option<&str>) -> ApiResult<Option<prost_types::Timestamp>> {
    text.map(|text| {
        chrono::DateTime::parse_from_rfc3339(text)
            .map(|t| timestamp(t.with_timezone(&chrono::Utc)))
            .map_err(|_| ApiError::field("captured_at", "Expected an RFC 3339 time."))
    })
    .transpose()
}

fn created_item(created: evidence::CreateItemResponse) -> ApiResult<CreatedItem> {
    let item = created
        .item
        .ok_or_else(|| ApiError::internal(&"evidence returned no item"))?;
    let upload = created.upload.map(|upload| match upload {
        evidence::create_item_response::Upload::Single(post) => Upload::Single {
            url: post.url,
            fields: post.fields.into_iter().collect(),
            expires_at: rfc3339(post.expires_at),
        },
        evidence::create_item_response::Upload::Multipart(m) => Upload::Multipart {
            upload_id: m.upload_id,
            part_size: m.part_size,
            part_count: m.part_count,
        },
    });
    Ok(CreatedItem {
        item: item.into(),
        upload,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PartNumbers {
    /// 1-based part numbers to presign, each from 1 to the upload's part count (at most 10000;
    /// empty: only report the parts already uploaded).
    #[serde(default)]
    pub part_numbers: Vec<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PartUrl {
    pub part_number: i32,
    /// PUT the part's bytes here; keep nothing of the answer (the service lists parts itself).
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PartUrls {
    pub urls: Vec<PartUrl>,
    /// Parts the store already holds: a resumed upload skips them.
    pub completed_parts: Vec<i32>,
    pub part_size: i64,
    pub part_count: i32,
    pub expires_at: Option<String>,
}

impl From<evidence::GetPartUrlsResponse> for PartUrls {
    fn from(parts: evidence::GetPartUrlsResponse) -> Self {
        Self {
            urls: parts
                .urls
                .into_iter()
                .map(|u| PartUrl {
                    part_number: u.part_number,
                    url: u.url,
                })
                .collect(),
            completed_parts: parts.completed_parts,
            part_size: parts.part_size,
            part_count: parts.part_count,
            expires_at: rfc3339(parts.expires_at),
        }
    }
}

forward! {
/// Presigned URLs (15 minutes) for parts of a multipart upload, and the parts already done.
#[utoipa::path(post, path = "/api/evidence/items/{item_id}/multipart-upload/part-urls/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)), request_body = PartNumbers,
    responses((status = 200, body = PartUrls), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn part_urls(path: String, body: PartNumbers) -> PartUrls =
    evidence.get_part_urls(|item_id, body| evidence::GetPartUrlsRequest {
        item_id,
        part_numbers: body.part_numbers,
    });
}

forward! {
/// The bytes are up: the service checks the stored object and records its receipt; size and
/// SHA-256 are then verified in the background (status `verified` or `rejected`).
#[utoipa::path(post, path = "/api/evidence/items/{item_id}/upload/finish/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)),
    responses((status = 200, body = Item), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn finish_upload(path: String) -> Item =
    evidence.finish_upload(|item_id| evidence::FinishUploadRequest { item_id });
}

forward! {
/// One evidence item.
#[utoipa::path(get, path = "/api/evidence/items/{item_id}/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)),
    responses((status = 200, body = Item), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn get_item(path: String) -> Item =
    evidence.get_item(|item_id| evidence::GetItemRequest { item_id });
}

forward! {
/// Renames a file (spec §5 "File name").
#[utoipa::path(patch, path = "/api/evidence/items/{item_id}/rename/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)), request_body = NewName,
    responses((status = 200, body = Item), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn rename_item(path: String, body: NewName) -> Item =
    evidence.rename_item(|item_id, body| evidence::RenameItemRequest { item_id, name: body.name });
}

forward! {
/// Deletes a file.
#[utoipa::path(delete, path = "/api/evidence/items/{item_id}/delete/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn delete_item(path: String) -> NoContent =
    evidence.delete_item(|item_id| evidence::DeleteItemRequest { item_id });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Download {
    /// A presigned GET of the file (15 minutes).
    pub url: String,
    pub expires_at: Option<String>,
}

impl From<evidence::DownloadItemResponse> for Download {
    fn from(download: evidence::DownloadItemResponse) -> Self {
        Self {
            url: download.url,
            expires_at: rfc3339(download.expires_at),
        }
    }
}

forward! {
/// A link to download the file; refused with 'Please extend your Storage Date for this file.' once
/// the folder's storage date has passed.
#[utoipa::path(get, path = "/api/evidence/items/{item_id}/download/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)),
    responses((status = 200, body = Download), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn download_item(path: String) -> Download =
    evidence.download_item(|item_id| evidence::DownloadItemRequest { item_id });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct Retake {
    /// Of the item's own media type (an image is retaken as an image).
    #[schema(max_length = 100)]
    pub mime_type: String,
    /// Bytes: 1 to the service's `MAX_FILE_BYTES` (10 GiB by default).
    #[schema(minimum = 1, maximum = 10737418240.0)]
    pub file_size: i64,
    /// Lower-case hex SHA-256 computed on the device.
    #[schema(pattern = r"^[0-9a-f]{64}$")]
    pub sha256: String,
    /// When the device captured it, RFC 3339.
    pub captured_at: Option<String>,
    #[schema(minimum = -90, maximum = 90)]
    pub latitude: Option<f64>,
    #[schema(minimum = -180, maximum = 180)]
    pub longitude: Option<f64>,
    /// Seconds, for video and audio: a finite number from 0 to 86400 (24 hours).
    #[schema(minimum = 0, maximum = 86_400)]
    pub duration: Option<f64>,
}

/// A new capture replaces the file (same item, name and section) and gets its own upload. Until
/// the new file is verified the previous one is kept and still opens; then it is deleted. Refused
/// with 403 'Please extend your Storage Date for this file.' once the folder has expired
/// (`can_retake` is false).
#[utoipa::path(post, path = "/api/evidence/items/{item_id}/retake/", tag = "evidence", security(("bearer" = [])),
    params(("item_id" = String, Path)), request_body = Retake,
    responses((status = 200, body = CreatedItem), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn retake_item(
    State(state): State<AppState>,
    User(caller): User,
    ApiPath(item_id): ApiPath<String>,
    ApiJson(body): ApiJson<Retake>,
) -> ApiResult<Json<CreatedItem>> {
    let captured_at = captured_at(body.captured_at.as_deref())?;
    let created = state
        .evidence()
        .retake_item(caller.request(evidence::RetakeItemRequest {
            item_id,
            mime_type: body.mime_type,
            file_size: body.file_size,
            sha256: body.sha256,
            captured_at,
            latitude: body.latitude,
            longitude: body.longitude,
            duration_seconds: body.duration,
        }))
        .await
        .answer()?;
    Ok(Json(created_item(created)?))
}
