//! The gRPC surface of evidence: converts proto messages to domain values and back, nothing else.

use chrono::{DateTime, Utc};
use evidentia_common::{
    errors::FieldError,
    grpc::Caller,
    time::{datetime, timestamp},
};
use evidentia_proto::evidence::v1::{
    self as pb, evidence_service_server::EvidenceService as EvidenceRpc,
};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    AppState,
    domain::{self, MediaType, Name, Rental},
    error::EvidenceError,
    folders::{self, Folder, NewFolder},
    items::{self, Item, NewItem, Retake, Upload},
    usage,
};

pub struct EvidenceApi {
    pub state: AppState,
}

/// A malformed id names nobody's resource: the same answer as another user's.
fn id(value: &str) -> Result<Uuid, EvidenceError> {
    Uuid::parse_str(value).map_err(|_| EvidenceError::NotFound)
}

fn name(value: &str) -> Result<Name, EvidenceError> {
    Name::parse("name", value).map_err(|e| EvidenceError::Invalid(vec![e]))
}

fn from_ts(at: Option<prost_types::Timestamp>) -> Result<Option<DateTime<Utc>>, EvidenceError> {
    at.map(|t| {
        datetime(&t).ok_or_else(|| {
            EvidenceError::Invalid(vec![FieldError::new("captured_at", "Invalid time.")])
        })
    })
    .transpose()
}

impl EvidenceApi {
    fn folder(&self, folder: Folder) -> pb::Folder {
        let now = Utc::now();
        pb::Folder {
            id: folder.id.to_string(),
            expired: self
                .state
                .config
                .storage
                .expired(folder.storage_expires_at, now),
            expire_soon: self
                .state
                .config
                .storage
                .expire_soon(folder.storage_expires_at, now),
            name: folder.name,
            created_at: Some(timestamp(folder.created_at)),
            storage_expires_at: Some(timestamp(folder.storage_expires_at)),
            file_count: folder.file_count,
            used_bytes: folder.used_bytes,
            rental: folder.rental_kind.map(|kind| pb::Rental {
                kind,
                vehicle_type: folder.vehicle_type,
                moment: folder.moment.unwrap_or_default(),
                pickup_folder_id: folder.pickup_folder_id.map(|id| id.to_string()),
            }),
        }
    }
}

fn upload_to_proto(upload: Upload) -> pb::create_item_response::Upload {
    match upload {
        Upload::Single(post) => pb::create_item_response::Upload::Single(pb::SingleUpload {
            url: post.url,
            fields: post.fields.into_iter().collect(),
            expires_at: Some(timestamp(post.expires_at)),
        }),
        Upload::Multipart {
            upload_id,
            part_size,
            part_count,
        } => pb::create_item_response::Upload::Multipart(pb::MultipartUpload {
            upload_id,
            part_size,
            part_count,
        }),
    }
}

impl EvidenceApi {
    async fn conn(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, EvidenceError> {
        Ok(self.state.pool.acquire().await?)
    }

    async fn tx(&self) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, EvidenceError> {
        Ok(self.state.pool.begin().await?)
    }

    /// The proto item, with presigned GETs of the file and its thumbnail while they may be opened.
    async fn item(&self, item: Item) -> Result<pb::Item, EvidenceError> {
        let now = Utc::now();
        let policy = &self.state.config.storage;
        let expired = policy.expired(item.storage_expires_at, now);
        let expire_soon = policy.expire_soon(item.storage_expires_at, now);
        let ttl = std::time::Duration::from_secs(self.state.config.uploads.presign_ttl_seconds);
        let (file_url, thumbnail_url) = match item.readable() {
            Some((file, thumbnail)) if !expired => {
                let file = self.state.store.presign_get(file, ttl).await?;
                let thumbnail = match thumbnail {
                    Some(key) => Some(self.state.store.presign_get(key, ttl).await?),
                    None => None,
                };
                (Some(file), thumbnail)
            }
            _ => (None, None),
        };
        let expiration_date = Some(timestamp(item.storage_expires_at));
        let mut out = to_proto(item);
        out.file_url = file_url;
        out.thumbnail_url = thumbnail_url;
        out.expiration_date = expiration_date;
        out.expired = expired;
        out.expire_soon = expire_soon;
        out.can_retake = !expired;
        Ok(out)
    }
}

fn to_proto(item: Item) -> pb::Item {
    let media = match MediaType::from_db(&item.media_type) {
        Some(MediaType::Image) => pb::MediaType::Image,
        Some(MediaType::Video) => pb::MediaType::Video,
        Some(MediaType::Audio) => pb::MediaType::Audio,
        None => pb::MediaType::Unspecified,
    };
    let status = match item.status.as_str() {
        "awaiting_upload" => pb::ItemStatus::AwaitingUpload,
        "uploaded" => pb::ItemStatus::Uploaded,
        "verified" => pb::ItemStatus::Verified,
        "rejected" => pb::ItemStatus::Rejected,
        _ => pb::ItemStatus::Unspecified,
    };
    pb::Item {
        id: item.id.to_string(),
        folder_id: item.folder_id.to_string(),
        name: item.name,
        media_type: media as i32,
        mime_type: item.mime_type,
        file_size: item.file_size,
        sha256: item.sha256,
        status: status as i32,
        rejection_reason: item.rejection_reason,
        latitude: item.latitude,
        longitude: item.longitude,
        city: item.city,
        address: item.address,
        country_code: item.country_code,
        duration_seconds: item.duration_seconds,
        captured_at: Some(timestamp(item.captured_at)),
        received_at: item.received_at.map(timestamp),
        verified_at: item.verified_at.map(timestamp),
        created_at: Some(timestamp(item.created_at)),
        thumbnail_url: None,
        file_url: None,
        expiration_date: None,
        expired: false,
        expire_soon: false,
        client_id: item.client_id.map(|id| id.to_string()),
        section: item.section,
        can_retake: false,
    }
}

/// Chunks of an original on their way to the sharing service.
type OriginalStream =
    std::pin::Pin<Box<dyn futures::Stream<Item = Result<pb::OriginalChunk, Status>> + Send>>;

#[tonic::async_trait]
impl EvidenceRpc for EvidenceApi {
    type ReadOriginalStream = OriginalStream;

    async fn get_storage_usage(
        &self,
        request: Request<pb::GetStorageUsageRequest>,
    ) -> Result<Response<pb::StorageUsage>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let mut conn = self.conn().await?;
        let found = usage::usage(&mut conn, owner)
            .await
            .map_err(EvidenceError::from)?;
        Ok(Response::new(pb::StorageUsage {
            used_bytes: found.used_bytes,
            file_count: found.file_count,
            folder_count: found.folder_count,
        }))
    }

    async fn create_folder(
        &self,
        request: Request<pb::CreateFolderRequest>,
    ) -> Result<Response<pb::Folder>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let mut errors = Vec::new();
        let name = Name::parse("name", &req.name)
            .map_err(|e| errors.push(e))
            .ok();
        let client_id = domain::client_id("client_id", req.client_id.as_deref())
            .map_err(|e| errors.push(e))
            .ok()
            .flatten();
        let rental = req
            .rental
            .map(|r| {
                Rental::parse(
                    &r.kind,
                    r.vehicle_type.as_deref(),
                    &r.moment,
                    r.pickup_folder_id.as_deref(),
                )
            })
            .transpose()
            .map_err(|e| errors.extend(e))
            .ok()
            .flatten();
        let (Some(name), true) = (name, errors.is_empty()) else {
            return Err(EvidenceError::Invalid(errors).into());
        };
        let new = NewFolder {
            name,
            client_id,
            rental,
        };
        let mut tx = self.tx().await?;
        let folder = folders::create(&mut tx, &self.state.config.storage, owner, &new).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(self.folder(folder)))
    }

    async fn list_folders(
        &self,
        request: Request<pb::ListFoldersRequest>,
    ) -> Result<Response<pb::ListFoldersResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let pickup = request
            .into_inner()
            .pickup_folder_id
            .as_deref()
            .map(id)
            .transpose()?;
        let mut conn = self.conn().await?;
        let found = folders::list(&mut conn, owner, pickup).await?;
        Ok(Response::new(pb::ListFoldersResponse {
            folders: found.into_iter().map(|f| self.folder(f)).collect(),
        }))
    }

    async fn get_folder(
        &self,
        request: Request<pb::GetFolderRequest>,
    ) -> Result<Response<pb::Folder>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let mut conn = self.conn().await?;
        Ok(Response::new(
            self.folder(folders::get(&mut conn, owner, folder_id).await?),
        ))
    }

    async fn rename_folder(
        &self,
        request: Request<pb::RenameFolderRequest>,
    ) -> Result<Response<pb::Folder>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let folder_id = id(&req.folder_id)?;
        let name = name(&req.name)?;
        let mut conn = self.conn().await?;
        Ok(Response::new(self.folder(
            folders::rename(&mut conn, owner, folder_id, &name).await?,
        )))
    }

    async fn delete_folder(
        &self,
        request: Request<pb::DeleteFolderRequest>,
    ) -> Result<Response<pb::DeleteFolderResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let mut tx = self.tx().await?;
        let objects = folders::delete(&mut tx, owner, folder_id).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        self.state.store.remove_all(objects).await;
        Ok(Response::new(pb::DeleteFolderResponse {}))
    }

    async fn create_item(
        &self,
        request: Request<pb::CreateItemRequest>,
    ) -> Result<Response<pb::CreateItemResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let media_type = match pb::MediaType::try_from(req.media_type) {
            Ok(pb::MediaType::Image) => Some(MediaType::Image),
            Ok(pb::MediaType::Video) => Some(MediaType::Video),
            Ok(pb::MediaType::Audio) => Some(MediaType::Audio),
            _ => None,
        };
        let new = NewItem {
            folder_id: id(&req.folder_id)?,
            name: req.name,
            media_type,
            mime_type: req.mime_type,
            file_size: req.file_size,
            sha256: req.sha256,
            captured_at: from_ts(req.captured_at)?,
            latitude: req.latitude,
            longitude: req.longitude,
            duration_seconds: req.duration_seconds,
            client_id: req.client_id,
            section: req.section,
        };
        let (created, upload) = items::create(&self.state, owner, new).await?;
        Ok(Response::new(pb::CreateItemResponse {
            item: Some(self.item(created).await?),
            upload: upload.map(upload_to_proto),
        }))
    }

    async fn get_part_urls(
        &self,
        request: Request<pb::GetPartUrlsRequest>,
    ) -> Result<Response<pb::GetPartUrlsResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let item_id = id(&req.item_id)?;
        let parts = items::part_urls(&self.state, owner, item_id, &req.part_numbers).await?;
        Ok(Response::new(pb::GetPartUrlsResponse {
            urls: parts
                .urls
                .into_iter()
                .map(|(part_number, url)| pb::PartUrl { part_number, url })
                .collect(),
            completed_parts: parts.completed,
            part_size: parts.part_size,
            part_count: parts.part_count,
            expires_at: Some(timestamp(parts.expires_at)),
        }))
    }

    async fn finish_upload(
        &self,
        request: Request<pb::FinishUploadRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let item_id = id(&request.into_inner().item_id)?;
        let finished = items::finish(&self.state, owner, item_id).await?;
        Ok(Response::new(self.item(finished).await?))
    }

    async fn list_items(
        &self,
        request: Request<pb::ListItemsRequest>,
    ) -> Result<Response<pb::ListItemsResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let mut conn = self.conn().await?;
        let found = items::list(&mut conn, owner, folder_id).await?;
        let mut out = Vec::with_capacity(found.len());
        for found in found {
            out.push(self.item(found).await?);
        }
        Ok(Response::new(pb::ListItemsResponse { items: out }))
    }

    async fn get_item(
        &self,
        request: Request<pb::GetItemRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let item_id = id(&request.into_inner().item_id)?;
        let mut conn = self.conn().await?;
        let found = items::get(&mut conn, owner, item_id).await?;
        Ok(Response::new(self.item(found).await?))
    }

    async fn rename_item(
        &self,
        request: Request<pb::RenameItemRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let item_id = id(&req.item_id)?;
        let name = name(&req.name)?;
        let mut conn = self.conn().await?;
        let renamed = items::rename(&mut conn, owner, item_id, &name).await?;
        Ok(Response::new(self.item(renamed).await?))
    }

    async fn delete_item(
        &self,
        request: Request<pb::DeleteItemRequest>,
    ) -> Result<Response<pb::DeleteItemResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let item_id = id(&request.into_inner().item_id)?;
        let mut tx = self.tx().await?;
        let deleted = items::delete(&mut tx, owner, item_id).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        self.state.store.remove_all(deleted.objects()).await;
        Ok(Response::new(pb::DeleteItemResponse {}))
    }

    async fn retake_item(
        &self,
        request: Request<pb::RetakeItemRequest>,
    ) -> Result<Response<pb::CreateItemResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let retake = Retake {
            item_id: id(&req.item_id)?,
            mime_type: req.mime_type,
            file_size: req.file_size,
            sha256: req.sha256,
            captured_at: from_ts(req.captured_at)?,
            latitude: req.latitude,
            longitude: req.longitude,
            duration_seconds: req.duration_seconds,
        };
        let retaken = items::retake(&self.state, owner, retake).await?;
        self.state.store.remove_all(retaken.discarded).await;
        Ok(Response::new(pb::CreateItemResponse {
            item: Some(self.item(retaken.item).await?),
            upload: Some(upload_to_proto(retaken.upload)),
        }))
    }

    async fn extend_storage_date(
        &self,
        request: Request<pb::ExtendStorageDateRequest>,
    ) -> Result<Response<pb::Folder>, Status> {
        let req = request.into_inner();
        let folder_id = id(&req.folder_id)?;
        let owner = id(&req.owner_id)?;
        let until = req
            .storage_expires_at
            .as_ref()
            .and_then(datetime)
            .ok_or_else(|| {
                EvidenceError::Invalid(vec![FieldError::new(
                    "storage_expires_at",
                    "Expected the new storage date.",
                )])
            })?;
        let mut tx = self.tx().await?;
        let folder = folders::extend(&mut tx, owner, folder_id, until).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(self.folder(folder)))
    }

    async fn hold_items(
        &self,
        request: Request<pb::HoldItemsRequest>,
    ) -> Result<Response<pb::HoldItemsResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let req = request.into_inner();
        let hold_id = id(&req.hold_id)?;
        let item_ids = req
            .item_ids
            .iter()
            .map(|item| id(item))
            .collect::<Result<Vec<_>, _>>()?;
        let mut tx = self.tx().await?;
        crate::holds::place(&mut tx, owner, hold_id, &item_ids).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(pb::HoldItemsResponse {}))
    }

    async fn release_hold(
        &self,
        request: Request<pb::ReleaseHoldRequest>,
    ) -> Result<Response<pb::ReleaseHoldResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let hold_id = id(&request.into_inner().hold_id)?;
        let mut conn = self.conn().await?;
        crate::holds::release(&mut conn, owner, hold_id)
            .await
            .map_err(EvidenceError::from)?;
        Ok(Response::new(pb::ReleaseHoldResponse {}))
    }

    async fn read_original(
        &self,
        request: Request<pb::ReadOriginalRequest>,
    ) -> Result<Response<OriginalStream>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let item_id = id(&request.into_inner().item_id)?;
        let key = items::original_key(&self.state, owner, item_id).await?;
        let body = self
            .state
            .store
            .stream(&key)
            .await
            .map_err(EvidenceError::Internal)?;
        let chunks = futures::stream::try_unfold(body, |mut body| async move {
            match body.try_next().await {
                Ok(Some(data)) => Ok(Some((
                    pb::OriginalChunk {
                        data: data.to_vec(),
                    },
                    body,
                ))),
                Ok(None) => Ok(None),
                Err(err) => {
                    tracing::error!(error = %err, "reading an original from S3 failed");
                    Err(Status::unavailable(
                        "The file could not be read. Try again.",
                    ))
                }
            }
        });
        Ok(Response::new(Box::pin(chunks)))
    }

    async fn download_item(
        &self,
        request: Request<pb::DownloadItemRequest>,
    ) -> Result<Response<pb::DownloadItemResponse>, Status> {
        let owner = Caller::from_metadata(request.metadata()).require_user()?;
        let item_id = id(&request.into_inner().item_id)?;
        let (url, expires_at) = items::download(&self.state, owner, item_id).await?;
        Ok(Response::new(pb::DownloadItemResponse {
            url,
            expires_at: Some(timestamp(expires_at)),
        }))
    }
}
