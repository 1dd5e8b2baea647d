//! The gRPC surface of evidence: converts proto messages to domain values and back, nothing else.

use chrono::{DateTime, Utc};
use evidentia_common::{
    errors::FieldError,
    grpc::{caller_of, user_of},
    time::{datetime, timestamp},
};
use evidentia_proto::evidence::v1::{
    self as pb, evidence_service_server::EvidenceService as EvidenceRpc,
};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    contributions,
    domain::{self, MediaType, Name, Rental},
    error::EvidenceError,
    folders::{self, Folder, NewFolder},
    items::{self, Item, NewItem, Retake, Upload},
    org_folders::{self, Decision, OrgFolder},
    organizations::{self, FolderAccess, Membership},
    state::AppState,
    templates::{self, StepInput, Template, TemplateInput},
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
            owned_by_caller: true,
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

fn parts_to_proto(parts: items::PartUrls) -> pb::GetPartUrlsResponse {
    pb::GetPartUrlsResponse {
        urls: parts
            .urls
            .into_iter()
            .map(|(part_number, url)| pb::PartUrl { part_number, url })
            .collect(),
        completed_parts: parts.completed,
        part_size: parts.part_size,
        part_count: parts.part_count,
        expires_at: Some(timestamp(parts.expires_at)),
        upload_id: parts.upload_id,
    }
}

fn media_to_proto(media: MediaType) -> i32 {
    let media = match media {
        MediaType::Image => pb::MediaType::Image,
        MediaType::Video => pb::MediaType::Video,
        MediaType::Audio => pb::MediaType::Audio,
    };
    media as i32
}

fn template_to_proto(t: Template) -> pb::Template {
    pb::Template {
        id: t.id.to_string(),
        name: t.name,
        description: t.description,
        archived: t.archived,
        steps: t
            .steps
            .into_iter()
            .map(|s| pb::TemplateStep {
                id: s.id.to_string(),
                media_types: s.media().into_iter().map(media_to_proto).collect(),
                name: s.name,
                instructions: s.instructions,
                min_files: s.min_files,
                max_files: s.max_files,
            })
            .collect(),
        created_at: Some(timestamp(t.created_at)),
        updated_at: Some(timestamp(t.updated_at)),
    }
}

/// A template as sent; an unknown media type or a malformed step id is a field error.
fn template_input(input: Option<pb::TemplateInput>) -> Result<TemplateInput, EvidenceError> {
    let input = input.unwrap_or_default();
    let mut errors = Vec::new();
    let steps = input
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            let step_id = if step.id.is_empty() {
                None
            } else {
                Uuid::parse_str(&step.id)
                    .map_err(|_| {
                        errors.push(FieldError::new(
                            format!("steps[{i}].id"),
                            "This step is not one of the template's.",
                        ));
                    })
                    .ok()
            };
            let media_types = step
                .media_types
                .iter()
                .filter_map(|m| {
                    let media = media_type(*m);
                    if media.is_none() {
                        errors.push(FieldError::new(
                            format!("steps[{i}].media_types"),
                            "Choose image, video or audio.",
                        ));
                    }
                    media
                })
                .collect();
            StepInput {
                id: step_id,
                name: step.name,
                instructions: step.instructions,
                media_types,
                min_files: step.min_files,
                max_files: step.max_files,
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(TemplateInput {
            name: input.name,
            description: input.description,
            steps,
        })
    } else {
        Err(EvidenceError::Invalid(errors))
    }
}

fn contributor_id(value: &str) -> Result<Uuid, EvidenceError> {
    id(value)
}

fn media_type(value: i32) -> Option<MediaType> {
    match pb::MediaType::try_from(value) {
        Ok(pb::MediaType::Image) => Some(MediaType::Image),
        Ok(pb::MediaType::Video) => Some(MediaType::Video),
        Ok(pb::MediaType::Audio) => Some(MediaType::Audio),
        _ => None,
    }
}

fn new_item(req: pb::CreateItemRequest) -> Result<NewItem, EvidenceError> {
    Ok(NewItem {
        folder_id: id(&req.folder_id)?,
        name: req.name,
        media_type: media_type(req.media_type),
        mime_type: req.mime_type,
        file_size: req.file_size,
        sha256: req.sha256,
        captured_at: from_ts(req.captured_at)?,
        latitude: req.latitude,
        longitude: req.longitude,
        duration_seconds: req.duration_seconds,
        client_id: req.client_id,
        section: req.section,
        step_id: req.step_id,
        contribution: None,
    })
}

impl EvidenceApi {
    /// How the caller reaches the folder (theirs, or their organization's); `NotFound` otherwise.
    async fn folder_access<T>(
        &self,
        request: &Request<T>,
        folder_id: Uuid,
    ) -> Result<FolderAccess, EvidenceError> {
        let caller = caller_of(request);
        let user = caller.require_user().map_err(|_| EvidenceError::NotFound)?;
        let mut conn = self.conn().await?;
        organizations::folder(
            &mut conn,
            &*self.state.memberships,
            &caller,
            user,
            folder_id,
        )
        .await
    }

    /// How the caller reaches the item's folder.
    async fn item_access<T>(
        &self,
        request: &Request<T>,
        item_id: Uuid,
    ) -> Result<FolderAccess, EvidenceError> {
        let caller = caller_of(request);
        let user = caller.require_user().map_err(|_| EvidenceError::NotFound)?;
        let mut conn = self.conn().await?;
        organizations::item(&mut conn, &*self.state.memberships, &caller, user, item_id).await
    }

    /// The caller's organization membership (`NotFound` without one).
    async fn membership<T>(&self, request: &Request<T>) -> Result<Membership, Status> {
        let caller = caller_of(request);
        caller.require_user()?;
        Ok(organizations::require(&*self.state.memberships, &caller).await?)
    }

    async fn org_folder(&self, found: OrgFolder) -> Result<pb::OrganizationFolder, EvidenceError> {
        let steps_complete = i32::try_from(found.steps_complete()).unwrap_or(i32::MAX);
        let mut steps = Vec::with_capacity(found.steps.len());
        for (step, files) in found.steps {
            let mut items = Vec::with_capacity(files.len());
            for file in files {
                items.push(self.item(file).await?);
            }
            steps.push(pb::FolderStep {
                id: step.id.to_string(),
                complete: step.complete(),
                file_count: i32::try_from(step.file_count).unwrap_or(i32::MAX),
                media_types: step.media().into_iter().map(media_to_proto).collect(),
                name: step.name,
                instructions: step.instructions,
                min_files: step.min_files,
                max_files: step.max_files,
                items,
            });
        }
        Ok(pb::OrganizationFolder {
            folder: Some(self.folder(found.folder)),
            organization_id: found.organization_id.to_string(),
            template_id: found.template_id.to_string(),
            template_name: found.template_name,
            steps,
            steps_complete,
            pending_count: i32::try_from(found.pending_count).unwrap_or(i32::MAX),
        })
    }

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
        step_id: item.step_id.map(|id| id.to_string()),
        review_state: item.review_state,
        contributor_email: item.contributor_email,
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
        let owner = user_of(&request)?;
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
        let owner = user_of(&request)?;
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
            organization: None,
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
        let owner = user_of(&request)?;
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
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let access = self.folder_access(&request, folder_id).await?;
        let mut conn = self.conn().await?;
        let mut folder = self.folder(folders::get(&mut conn, access.owner, folder_id).await?);
        folder.owned_by_caller = access.membership.is_none();
        Ok(Response::new(folder))
    }

    async fn rename_folder(
        &self,
        request: Request<pb::RenameFolderRequest>,
    ) -> Result<Response<pb::Folder>, Status> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let access = self.folder_access(&request, folder_id).await?;
        access.require_manager()?;
        let owner = access.owner;
        let name = name(&request.into_inner().name)?;
        let mut conn = self.conn().await?;
        Ok(Response::new(self.folder(
            folders::rename(&mut conn, owner, folder_id, &name).await?,
        )))
    }

    async fn delete_folder(
        &self,
        request: Request<pb::DeleteFolderRequest>,
    ) -> Result<Response<pb::DeleteFolderResponse>, Status> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let access = self.folder_access(&request, folder_id).await?;
        access.require_manager()?;
        let owner = access.owner;
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
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let owner = self.folder_access(&request, folder_id).await?.owner;
        let new = new_item(request.into_inner())?;
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
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;

        let owner = access.owner;
        let req = request.into_inner();
        let parts = items::part_urls(&self.state, owner, item_id, &req.part_numbers).await?;
        Ok(Response::new(parts_to_proto(parts)))
    }

    async fn finish_upload(
        &self,
        request: Request<pb::FinishUploadRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;

        let owner = access.owner;
        let finished = items::finish(&self.state, owner, item_id).await?;
        Ok(Response::new(self.item(finished).await?))
    }

    async fn list_items(
        &self,
        request: Request<pb::ListItemsRequest>,
    ) -> Result<Response<pb::ListItemsResponse>, Status> {
        let owner = user_of(&request)?;
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
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;

        let owner = access.owner;
        let mut conn = self.conn().await?;
        let found = items::get(&mut conn, owner, item_id).await?;
        Ok(Response::new(self.item(found).await?))
    }

    async fn rename_item(
        &self,
        request: Request<pb::RenameItemRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        let owner = access.owner;
        let req = request.into_inner();
        let name = name(&req.name)?;
        let mut conn = self.conn().await?;
        let renamed = items::rename(&mut conn, owner, item_id, &name).await?;
        Ok(Response::new(self.item(renamed).await?))
    }

    async fn delete_item(
        &self,
        request: Request<pb::DeleteItemRequest>,
    ) -> Result<Response<pb::DeleteItemResponse>, Status> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        let owner = access.owner;
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
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        let owner = access.owner;
        let req = request.into_inner();
        let retake = Retake {
            item_id,
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
        let owner = user_of(&request)?;
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
        let owner = user_of(&request)?;
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
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;

        let owner = access.owner;
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
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;

        let owner = access.owner;
        let (url, expires_at) = items::download(&self.state, owner, item_id).await?;
        Ok(Response::new(pb::DownloadItemResponse {
            url,
            expires_at: Some(timestamp(expires_at)),
        }))
    }

    async fn list_templates(
        &self,
        request: Request<pb::ListTemplatesRequest>,
    ) -> Result<Response<pb::ListTemplatesResponse>, Status> {
        let member = self.membership(&request).await?;
        let mut conn = self.conn().await?;
        let found = templates::list(&mut conn, &member, request.get_ref().archived).await?;
        Ok(Response::new(pb::ListTemplatesResponse {
            templates: found.into_iter().map(template_to_proto).collect(),
        }))
    }

    async fn get_template(
        &self,
        request: Request<pb::GetTemplateRequest>,
    ) -> Result<Response<pb::Template>, Status> {
        let member = self.membership(&request).await?;
        let template_id = id(&request.get_ref().template_id)?;
        let mut conn = self.conn().await?;
        let found = templates::get(&mut conn, &member, template_id).await?;
        Ok(Response::new(template_to_proto(found)))
    }

    async fn create_template(
        &self,
        request: Request<pb::TemplateInput>,
    ) -> Result<Response<pb::Template>, Status> {
        let member = self.membership(&request).await?;
        let user = user_of(&request)?;
        let input = template_input(Some(request.into_inner()))?;
        let mut tx = self.tx().await?;
        let made = templates::create(&mut tx, &member, user, input).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(template_to_proto(made)))
    }

    async fn update_template(
        &self,
        request: Request<pb::UpdateTemplateRequest>,
    ) -> Result<Response<pb::Template>, Status> {
        let member = self.membership(&request).await?;
        let req = request.into_inner();
        let template_id = id(&req.template_id)?;
        let input = template_input(req.template)?;
        let mut tx = self.tx().await?;
        let changed = templates::update(&mut tx, &member, template_id, input).await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(template_to_proto(changed)))
    }

    async fn archive_template(
        &self,
        request: Request<pb::ArchiveTemplateRequest>,
    ) -> Result<Response<pb::Template>, Status> {
        let member = self.membership(&request).await?;
        let req = request.into_inner();
        let template_id = id(&req.template_id)?;
        let mut conn = self.conn().await?;
        let changed = templates::archive(&mut conn, &member, template_id, req.archived).await?;
        Ok(Response::new(template_to_proto(changed)))
    }

    async fn create_organization_folder(
        &self,
        request: Request<pb::CreateOrganizationFolderRequest>,
    ) -> Result<Response<pb::OrganizationFolder>, Status> {
        let member = self.membership(&request).await?;
        let req = request.into_inner();
        let mut errors = Vec::new();
        let template_id = Uuid::parse_str(&req.template_id)
            .map_err(|_| errors.push(FieldError::new("template_id", "Choose a template.")))
            .ok();
        let name = Name::parse("name", &req.name)
            .map_err(|e| errors.push(e))
            .ok();
        let client_id = domain::client_id("client_id", req.client_id.as_deref())
            .map_err(|e| errors.push(e))
            .ok()
            .flatten();
        let (Some(template_id), Some(name), true) = (template_id, name, errors.is_empty()) else {
            return Err(EvidenceError::Invalid(errors).into());
        };
        let mut tx = self.tx().await?;
        let made = org_folders::create(
            &mut tx,
            &self.state.config.storage,
            &member,
            template_id,
            name,
            client_id,
        )
        .await?;
        tx.commit().await.map_err(EvidenceError::from)?;
        Ok(Response::new(self.org_folder(made).await?))
    }

    async fn list_organization_folders(
        &self,
        request: Request<pb::ListOrganizationFoldersRequest>,
    ) -> Result<Response<pb::ListOrganizationFoldersResponse>, Status> {
        let member = self.membership(&request).await?;
        let mut conn = self.conn().await?;
        let found = org_folders::list(&mut conn, &member).await?;
        let mut folders = Vec::with_capacity(found.len());
        for folder in found {
            folders.push(self.org_folder(folder).await?);
        }
        Ok(Response::new(pb::ListOrganizationFoldersResponse {
            folders,
        }))
    }

    async fn get_organization_folder(
        &self,
        request: Request<pb::GetOrganizationFolderRequest>,
    ) -> Result<Response<pb::OrganizationFolder>, Status> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let owner = self.folder_access(&request, folder_id).await?.owner;
        let mut conn = self.conn().await?;
        let found = org_folders::get(&mut conn, owner, folder_id).await?;
        Ok(Response::new(self.org_folder(found).await?))
    }

    async fn review_item(
        &self,
        request: Request<pb::ReviewItemRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let user = user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let decision = Decision::parse(&request.get_ref().decision)?;
        let mut conn = self.conn().await?;
        let reviewed = org_folders::review(&mut conn, owner, user, item_id, decision).await?;
        Ok(Response::new(self.item(reviewed).await?))
    }

    async fn get_contribution_folder(
        &self,
        request: Request<pb::GetContributionFolderRequest>,
    ) -> Result<Response<pb::OrganizationFolder>, Status> {
        let folder_id = id(&request.into_inner().folder_id)?;
        let mut conn = self.conn().await?;
        let found = org_folders::for_contribution(&mut conn, folder_id).await?;
        Ok(Response::new(self.org_folder(found).await?))
    }

    async fn create_contribution(
        &self,
        request: Request<pb::CreateContributionRequest>,
    ) -> Result<Response<pb::CreateItemResponse>, Status> {
        let req = request.into_inner();
        let who = req.contributor.unwrap_or_default();
        let contribution = items::Contribution {
            contributor_id: contributor_id(&who.contributor_id)?,
            email: who.email,
            link_id: id(&who.link_id)?,
        };
        let new = new_item(req.item.unwrap_or_default())?;
        let (created, upload) =
            contributions::create(&self.state, contribution, req.step_id, new).await?;
        Ok(Response::new(pb::CreateItemResponse {
            item: Some(self.item(created).await?),
            upload: upload.map(upload_to_proto),
        }))
    }

    async fn contribution_single_upload(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Result<Response<pb::SingleUpload>, Status> {
        let req = request.into_inner();
        let post = contributions::single_upload(
            &self.state,
            contributor_id(&req.contributor_id)?,
            id(&req.item_id)?,
        )
        .await?;
        Ok(Response::new(pb::SingleUpload {
            url: post.url,
            fields: post.fields.into_iter().collect(),
            expires_at: Some(timestamp(post.expires_at)),
        }))
    }

    async fn contribution_part_urls(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Result<Response<pb::GetPartUrlsResponse>, Status> {
        let req = request.into_inner();
        let parts = contributions::part_urls(
            &self.state,
            contributor_id(&req.contributor_id)?,
            id(&req.item_id)?,
        )
        .await?;
        Ok(Response::new(parts_to_proto(parts)))
    }

    async fn finish_contribution(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let req = request.into_inner();
        let finished = contributions::finish(
            &self.state,
            contributor_id(&req.contributor_id)?,
            id(&req.item_id)?,
        )
        .await?;
        Ok(Response::new(self.item(finished).await?))
    }

    async fn update_contribution(
        &self,
        request: Request<pb::UpdateContributionRequest>,
    ) -> Result<Response<pb::Item>, Status> {
        let req = request.into_inner();
        let place = match (req.latitude, req.longitude) {
            (Some(lat), Some(lon)) => Some((lat, lon)),
            (None, None) => None,
            _ => {
                return Err(EvidenceError::Invalid(vec![FieldError::new(
                    "latitude",
                    "Send both latitude and longitude, or neither.",
                )])
                .into());
            }
        };
        let changed = contributions::update(
            &self.state,
            contributor_id(&req.contributor_id)?,
            id(&req.item_id)?,
            req.name,
            place,
        )
        .await?;
        Ok(Response::new(self.item(changed).await?))
    }

    async fn list_contributions(
        &self,
        request: Request<pb::ListContributionsRequest>,
    ) -> Result<Response<pb::ListItemsResponse>, Status> {
        let req = request.into_inner();
        let folder_id = id(&req.folder_id)?;
        let step_id = req.step_id.as_deref().map(id).transpose()?;
        let mut conn = self.conn().await?;
        let found = contributions::list(
            &mut conn,
            folder_id,
            contributor_id(&req.contributor_id)?,
            step_id,
        )
        .await?;
        let mut items = Vec::with_capacity(found.len());
        for item in found {
            items.push(self.item(item).await?);
        }
        Ok(Response::new(pb::ListItemsResponse { items }))
    }
}
