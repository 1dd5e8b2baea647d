//! The gRPC edge of evidence: proto in, domain values to the use-cases (`TryFrom`), domain
//! results back to proto (`From`). Nothing else happens here.

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
    app::{
        access::{self, FolderAccess},
        contributions, folders, holds,
        items::{self, ItemView},
        org_folders::{self, NewOrgFolder, OrgFolder},
        retake, storage_dates, templates,
        uploads::{self, PartUrls, Upload},
        usage,
    },
    domain::{
        self, Contribution, Decision, Folder, FolderView, Item, MediaType, Membership, Name,
        NewFolder, NewItem, Rental, Retake, StepInput, Template, TemplateInput, Usage,
    },
    error::EvidenceError,
    receipts,
    state::AppState,
    storage::PresignedPost,
};

pub struct EvidenceApi {
    pub state: AppState,
}

type Reply<T> = Result<Response<T>, Status>;

/// A malformed id names nobody's resource: the same answer as another user's.
fn id(value: &str) -> Result<Uuid, EvidenceError> {
    Uuid::parse_str(value).map_err(|_| EvidenceError::NotFound)
}

fn name(value: &str) -> Result<Name, EvidenceError> {
    Name::parse("name", value).map_err(|e| EvidenceError::Invalid(vec![e]))
}

fn captured_at(at: Option<prost_types::Timestamp>) -> Result<Option<DateTime<Utc>>, EvidenceError> {
    at.map(|t| {
        datetime(&t).ok_or_else(|| {
            EvidenceError::Invalid(vec![FieldError::new("captured_at", "Invalid time.")])
        })
    })
    .transpose()
}

fn media_type(value: i32) -> Option<MediaType> {
    match pb::MediaType::try_from(value) {
        Ok(pb::MediaType::Image) => Some(MediaType::Image),
        Ok(pb::MediaType::Video) => Some(MediaType::Video),
        Ok(pb::MediaType::Audio) => Some(MediaType::Audio),
        _ => None,
    }
}

impl From<MediaType> for pb::MediaType {
    fn from(media: MediaType) -> Self {
        match media {
            MediaType::Image => Self::Image,
            MediaType::Video => Self::Video,
            MediaType::Audio => Self::Audio,
        }
    }
}

fn media_types(media: Vec<MediaType>) -> Vec<i32> {
    media
        .into_iter()
        .map(|m| pb::MediaType::from(m) as i32)
        .collect()
}

impl TryFrom<pb::CreateFolderRequest> for NewFolder {
    type Error = EvidenceError;

    fn try_from(req: pb::CreateFolderRequest) -> Result<Self, EvidenceError> {
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
            return Err(EvidenceError::Invalid(errors));
        };
        Ok(Self {
            name,
            client_id,
            rental,
            organization: None,
        })
    }
}

impl TryFrom<pb::CreateItemRequest> for NewItem {
    type Error = EvidenceError;

    fn try_from(req: pb::CreateItemRequest) -> Result<Self, EvidenceError> {
        Ok(Self {
            folder_id: id(&req.folder_id)?,
            name: req.name,
            media_type: media_type(req.media_type),
            mime_type: req.mime_type,
            file_size: req.file_size,
            sha256: req.sha256,
            captured_at: captured_at(req.captured_at)?,
            latitude: req.latitude,
            longitude: req.longitude,
            duration_seconds: req.duration_seconds,
            client_id: req.client_id,
            section: req.section,
            step_id: req.step_id,
            contribution: None,
        })
    }
}

impl TryFrom<pb::RetakeItemRequest> for Retake {
    type Error = EvidenceError;

    fn try_from(req: pb::RetakeItemRequest) -> Result<Self, EvidenceError> {
        Ok(Self {
            item_id: id(&req.item_id)?,
            mime_type: req.mime_type,
            file_size: req.file_size,
            sha256: req.sha256,
            captured_at: captured_at(req.captured_at)?,
            latitude: req.latitude,
            longitude: req.longitude,
            duration_seconds: req.duration_seconds,
        })
    }
}

impl TryFrom<pb::Contributor> for Contribution {
    type Error = EvidenceError;

    fn try_from(who: pb::Contributor) -> Result<Self, EvidenceError> {
        Ok(Self {
            contributor_id: id(&who.contributor_id)?,
            email: who.email,
            link_id: id(&who.link_id)?,
        })
    }
}

/// A template as sent; an unknown media type or a malformed step id is a field error.
impl TryFrom<pb::TemplateInput> for TemplateInput {
    type Error = EvidenceError;

    fn try_from(input: pb::TemplateInput) -> Result<Self, EvidenceError> {
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
            Ok(Self {
                name: input.name,
                description: input.description,
                steps,
            })
        } else {
            Err(EvidenceError::Invalid(errors))
        }
    }
}

impl TryFrom<pb::CreateOrganizationFolderRequest> for NewOrgFolder {
    type Error = EvidenceError;

    fn try_from(req: pb::CreateOrganizationFolderRequest) -> Result<Self, EvidenceError> {
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
            return Err(EvidenceError::Invalid(errors));
        };
        Ok(Self {
            template_id,
            name,
            client_id,
        })
    }
}

impl From<Usage> for pb::StorageUsage {
    fn from(usage: Usage) -> Self {
        Self {
            used_bytes: usage.used_bytes,
            file_count: usage.file_count,
            folder_count: usage.folder_count,
        }
    }
}

impl From<FolderView> for pb::Folder {
    fn from(view: FolderView) -> Self {
        let folder = view.folder;
        Self {
            id: folder.id.to_string(),
            expired: view.expired,
            expire_soon: view.expire_soon,
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
            owned_by_caller: view.owned_by_caller,
        }
    }
}

impl From<ItemView> for pb::Item {
    fn from(view: ItemView) -> Self {
        let item = view.item;
        let media = MediaType::from_db(&item.media_type)
            .map_or(pb::MediaType::Unspecified, pb::MediaType::from);
        let status = match item.status.as_str() {
            "awaiting_upload" => pb::ItemStatus::AwaitingUpload,
            "uploaded" => pb::ItemStatus::Uploaded,
            "verified" => pb::ItemStatus::Verified,
            "rejected" => pb::ItemStatus::Rejected,
            _ => pb::ItemStatus::Unspecified,
        };
        Self {
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
            thumbnail_url: view.thumbnail_url,
            file_url: view.file_url,
            expiration_date: Some(timestamp(item.storage_expires_at)),
            expired: view.expired,
            expire_soon: view.expire_soon,
            client_id: item.client_id.map(|id| id.to_string()),
            section: item.section,
            can_retake: !view.expired,
            step_id: item.step_id.map(|id| id.to_string()),
            review_state: item.review_state,
            contributor_email: item.contributor_email,
            receipt: item
                .receipt
                .zip(item.receipt_signature)
                .map(|(payload, signature)| pb::Receipt {
                    key_id: receipts::key_id_of(&payload).unwrap_or_default(),
                    payload,
                    signature,
                    timestamp_token: item.receipt_timestamp.unwrap_or_default(),
                    timestamped_at: item.receipt_timestamped_at.map(timestamp),
                }),
        }
    }
}

impl From<PresignedPost> for pb::SingleUpload {
    fn from(post: PresignedPost) -> Self {
        Self {
            url: post.url,
            fields: post.fields.into_iter().collect(),
            expires_at: Some(timestamp(post.expires_at)),
        }
    }
}

impl From<Upload> for pb::create_item_response::Upload {
    fn from(upload: Upload) -> Self {
        match upload {
            Upload::Single(post) => Self::Single(post.into()),
            Upload::Multipart {
                upload_id,
                part_size,
                part_count,
            } => Self::Multipart(pb::MultipartUpload {
                upload_id,
                part_size,
                part_count,
            }),
        }
    }
}

impl From<PartUrls> for pb::GetPartUrlsResponse {
    fn from(parts: PartUrls) -> Self {
        Self {
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
}

impl From<Template> for pb::Template {
    fn from(t: Template) -> Self {
        Self {
            id: t.id.to_string(),
            name: t.name,
            description: t.description,
            archived: t.archived,
            steps: t
                .steps
                .into_iter()
                .map(|s| pb::TemplateStep {
                    id: s.id.to_string(),
                    media_types: media_types(s.media()),
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
}

impl EvidenceApi {
    fn uploads(&self) -> uploads::Deps<'_> {
        let config = &self.state.config;
        uploads::Deps {
            pool: &self.state.pool,
            store: &self.state.store,
            geocoder: self.state.geocoder.as_ref(),
            storage: &config.storage,
            uploads: &config.uploads,
            contributions: &config.contributions,
        }
    }

    /// How the caller reaches the folder (theirs, or their organization's); `NotFound` otherwise.
    async fn folder_access<T>(
        &self,
        request: &Request<T>,
        folder_id: Uuid,
    ) -> Result<FolderAccess, EvidenceError> {
        access::folder(
            &self.state.pool,
            self.state.memberships.as_ref(),
            &caller_of(request),
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
        access::item(
            &self.state.pool,
            self.state.memberships.as_ref(),
            &caller_of(request),
            item_id,
        )
        .await
    }

    /// The caller's organization membership (`NotFound` without one).
    async fn membership<T>(&self, request: &Request<T>) -> Result<Membership, Status> {
        let caller = caller_of(request);
        caller.require_user()?;
        Ok(access::require(self.state.memberships.as_ref(), &caller).await?)
    }

    fn folder(&self, folder: Folder) -> pb::Folder {
        FolderView::new(folder, &self.state.config.storage, Utc::now()).into()
    }

    /// The proto item, with presigned GETs of the file and its thumbnail while they may be opened.
    async fn item(&self, item: Item) -> Result<pb::Item, EvidenceError> {
        let config = &self.state.config;
        let view = items::view(&self.state.store, &config.storage, &config.uploads, item).await?;
        Ok(view.into())
    }

    async fn items(&self, found: Vec<Item>) -> Result<Vec<pb::Item>, EvidenceError> {
        let mut out = Vec::with_capacity(found.len());
        for item in found {
            out.push(self.item(item).await?);
        }
        Ok(out)
    }

    async fn org_folder(&self, found: OrgFolder) -> Result<pb::OrganizationFolder, EvidenceError> {
        let steps_complete = i32::try_from(found.steps_complete()).unwrap_or(i32::MAX);
        let mut steps = Vec::with_capacity(found.steps.len());
        for (step, files) in found.steps {
            steps.push(pb::FolderStep {
                id: step.id.to_string(),
                complete: step.complete(),
                file_count: i32::try_from(step.file_count).unwrap_or(i32::MAX),
                media_types: media_types(step.media()),
                name: step.name,
                instructions: step.instructions,
                min_files: step.min_files,
                max_files: step.max_files,
                items: self.items(files).await?,
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

    async fn created(
        &self,
        (item, upload): (Item, Option<Upload>),
    ) -> Reply<pb::CreateItemResponse> {
        Ok(Response::new(pb::CreateItemResponse {
            item: Some(self.item(item).await?),
            upload: upload.map(Into::into),
        }))
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
    ) -> Reply<pb::StorageUsage> {
        let owner = user_of(&request)?;
        let found = usage::usage(&self.state.pool, owner).await?;
        Ok(Response::new(found.into()))
    }

    async fn create_folder(&self, request: Request<pb::CreateFolderRequest>) -> Reply<pb::Folder> {
        let owner = user_of(&request)?;
        let new = NewFolder::try_from(request.into_inner())?;
        let folder =
            folders::create(&self.state.pool, &self.state.config.storage, owner, &new).await?;
        Ok(Response::new(self.folder(folder)))
    }

    async fn list_folders(
        &self,
        request: Request<pb::ListFoldersRequest>,
    ) -> Reply<pb::ListFoldersResponse> {
        let owner = user_of(&request)?;
        let pickup = request
            .into_inner()
            .pickup_folder_id
            .as_deref()
            .map(id)
            .transpose()?;
        let found = folders::list(&self.state.pool, owner, pickup).await?;
        Ok(Response::new(pb::ListFoldersResponse {
            folders: found.into_iter().map(|f| self.folder(f)).collect(),
        }))
    }

    async fn get_folder(&self, request: Request<pb::GetFolderRequest>) -> Reply<pb::Folder> {
        let user = user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let (found, owned) = folders::reached(
            &self.state.pool,
            self.state.memberships.as_ref(),
            &caller_of(&request),
            user,
            folder_id,
        )
        .await?;
        let mut folder = self.folder(found);
        folder.owned_by_caller = owned;
        Ok(Response::new(folder))
    }

    async fn rename_folder(&self, request: Request<pb::RenameFolderRequest>) -> Reply<pb::Folder> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let access = self.folder_access(&request, folder_id).await?;
        access.require_manager()?;
        let name = name(&request.into_inner().name)?;
        let renamed = folders::rename(&self.state.pool, access.owner, folder_id, &name).await?;
        Ok(Response::new(self.folder(renamed)))
    }

    async fn delete_folder(
        &self,
        request: Request<pb::DeleteFolderRequest>,
    ) -> Reply<pb::DeleteFolderResponse> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let access = self.folder_access(&request, folder_id).await?;
        access.require_manager()?;
        folders::delete(&self.state.pool, &self.state.store, access.owner, folder_id).await?;
        Ok(Response::new(pb::DeleteFolderResponse {}))
    }

    async fn create_item(
        &self,
        request: Request<pb::CreateItemRequest>,
    ) -> Reply<pb::CreateItemResponse> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let owner = self.folder_access(&request, folder_id).await?.owner;
        let new = NewItem::try_from(request.into_inner())?;
        self.created(uploads::create(self.uploads(), owner, new).await?)
            .await
    }

    async fn get_part_urls(
        &self,
        request: Request<pb::GetPartUrlsRequest>,
    ) -> Reply<pb::GetPartUrlsResponse> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let req = request.into_inner();
        let parts = uploads::part_urls(
            &self.state.pool,
            &self.state.store,
            &self.state.config.uploads,
            owner,
            item_id,
            &req.part_numbers,
        )
        .await?;
        Ok(Response::new(parts.into()))
    }

    async fn finish_upload(&self, request: Request<pb::FinishUploadRequest>) -> Reply<pb::Item> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let finished = uploads::finish(&self.state.pool, &self.state.store, owner, item_id).await?;
        Ok(Response::new(self.item(finished).await?))
    }

    async fn list_items(
        &self,
        request: Request<pb::ListItemsRequest>,
    ) -> Reply<pb::ListItemsResponse> {
        let owner = user_of(&request)?;
        let folder_id = id(&request.into_inner().folder_id)?;
        let found = items::list(&self.state.pool, owner, folder_id).await?;
        Ok(Response::new(pb::ListItemsResponse {
            items: self.items(found).await?,
        }))
    }

    async fn get_item(&self, request: Request<pb::GetItemRequest>) -> Reply<pb::Item> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let found = items::get(&self.state.pool, owner, item_id).await?;
        Ok(Response::new(self.item(found).await?))
    }

    async fn rename_item(&self, request: Request<pb::RenameItemRequest>) -> Reply<pb::Item> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        let name = name(&request.into_inner().name)?;
        let renamed = items::rename(&self.state.pool, access.owner, item_id, &name).await?;
        Ok(Response::new(self.item(renamed).await?))
    }

    async fn delete_item(
        &self,
        request: Request<pb::DeleteItemRequest>,
    ) -> Reply<pb::DeleteItemResponse> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        items::delete(&self.state.pool, &self.state.store, access.owner, item_id).await?;
        Ok(Response::new(pb::DeleteItemResponse {}))
    }

    async fn retake_item(
        &self,
        request: Request<pb::RetakeItemRequest>,
    ) -> Reply<pb::CreateItemResponse> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let access = self.item_access(&request, item_id).await?;
        access.require_manager()?;
        let new = Retake::try_from(request.into_inner())?;
        let retaken = retake::retake(self.uploads(), access.owner, new).await?;
        self.created((retaken.item, Some(retaken.upload))).await
    }

    async fn extend_storage_date(
        &self,
        request: Request<pb::ExtendStorageDateRequest>,
    ) -> Reply<pb::Folder> {
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
        let folder = storage_dates::extend(&self.state.pool, owner, folder_id, until).await?;
        Ok(Response::new(self.folder(folder)))
    }

    async fn hold_items(
        &self,
        request: Request<pb::HoldItemsRequest>,
    ) -> Reply<pb::HoldItemsResponse> {
        let owner = user_of(&request)?;
        let req = request.into_inner();
        let hold_id = id(&req.hold_id)?;
        let item_ids = req
            .item_ids
            .iter()
            .map(|item| id(item))
            .collect::<Result<Vec<_>, _>>()?;
        holds::place(&self.state.pool, owner, hold_id, &item_ids).await?;
        Ok(Response::new(pb::HoldItemsResponse {}))
    }

    async fn release_hold(
        &self,
        request: Request<pb::ReleaseHoldRequest>,
    ) -> Reply<pb::ReleaseHoldResponse> {
        let owner = user_of(&request)?;
        let hold_id = id(&request.into_inner().hold_id)?;
        holds::release(&self.state.pool, owner, hold_id).await?;
        Ok(Response::new(pb::ReleaseHoldResponse {}))
    }

    async fn read_original(
        &self,
        request: Request<pb::ReadOriginalRequest>,
    ) -> Reply<OriginalStream> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let body = items::original(
            &self.state.pool,
            &self.state.store,
            &self.state.config.storage,
            owner,
            item_id,
        )
        .await?;
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
    ) -> Reply<pb::DownloadItemResponse> {
        user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let config = &self.state.config;
        let (url, expires_at) = items::download(
            &self.state.pool,
            &self.state.store,
            &config.storage,
            &config.uploads,
            owner,
            item_id,
        )
        .await?;
        Ok(Response::new(pb::DownloadItemResponse {
            url,
            expires_at: Some(timestamp(expires_at)),
        }))
    }

    async fn list_templates(
        &self,
        request: Request<pb::ListTemplatesRequest>,
    ) -> Reply<pb::ListTemplatesResponse> {
        let member = self.membership(&request).await?;
        let found = templates::list(&self.state.pool, &member, request.get_ref().archived).await?;
        Ok(Response::new(pb::ListTemplatesResponse {
            templates: found.into_iter().map(Into::into).collect(),
        }))
    }

    async fn get_template(&self, request: Request<pb::GetTemplateRequest>) -> Reply<pb::Template> {
        let member = self.membership(&request).await?;
        let template_id = id(&request.get_ref().template_id)?;
        let found = templates::get(&self.state.pool, &member, template_id).await?;
        Ok(Response::new(found.into()))
    }

    async fn create_template(&self, request: Request<pb::TemplateInput>) -> Reply<pb::Template> {
        let member = self.membership(&request).await?;
        let user = user_of(&request)?;
        let input = TemplateInput::try_from(request.into_inner())?;
        let made = templates::create(&self.state.pool, &member, user, input).await?;
        Ok(Response::new(made.into()))
    }

    async fn update_template(
        &self,
        request: Request<pb::UpdateTemplateRequest>,
    ) -> Reply<pb::Template> {
        let member = self.membership(&request).await?;
        let req = request.into_inner();
        let template_id = id(&req.template_id)?;
        let input = TemplateInput::try_from(req.template.unwrap_or_default())?;
        let changed = templates::update(&self.state.pool, &member, template_id, input).await?;
        Ok(Response::new(changed.into()))
    }

    async fn archive_template(
        &self,
        request: Request<pb::ArchiveTemplateRequest>,
    ) -> Reply<pb::Template> {
        let member = self.membership(&request).await?;
        let req = request.into_inner();
        let template_id = id(&req.template_id)?;
        let changed =
            templates::archive(&self.state.pool, &member, template_id, req.archived).await?;
        Ok(Response::new(changed.into()))
    }

    async fn create_organization_folder(
        &self,
        request: Request<pb::CreateOrganizationFolderRequest>,
    ) -> Reply<pb::OrganizationFolder> {
        let member = self.membership(&request).await?;
        let new = NewOrgFolder::try_from(request.into_inner())?;
        let made =
            org_folders::create(&self.state.pool, &self.state.config.storage, &member, new).await?;
        Ok(Response::new(self.org_folder(made).await?))
    }

    async fn list_organization_folders(
        &self,
        request: Request<pb::ListOrganizationFoldersRequest>,
    ) -> Reply<pb::ListOrganizationFoldersResponse> {
        let member = self.membership(&request).await?;
        let found = org_folders::list(&self.state.pool, &member).await?;
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
    ) -> Reply<pb::OrganizationFolder> {
        user_of(&request)?;
        let folder_id = id(&request.get_ref().folder_id)?;
        let owner = self.folder_access(&request, folder_id).await?.owner;
        let found = org_folders::get(&self.state.pool, owner, folder_id).await?;
        Ok(Response::new(self.org_folder(found).await?))
    }

    async fn review_item(&self, request: Request<pb::ReviewItemRequest>) -> Reply<pb::Item> {
        let user = user_of(&request)?;
        let item_id = id(&request.get_ref().item_id)?;
        let owner = self.item_access(&request, item_id).await?.owner;
        let decision = Decision::parse(&request.get_ref().decision)?;
        let reviewed =
            org_folders::review(&self.state.pool, owner, user, item_id, decision).await?;
        Ok(Response::new(self.item(reviewed).await?))
    }

    async fn get_contribution_folder(
        &self,
        request: Request<pb::GetContributionFolderRequest>,
    ) -> Reply<pb::OrganizationFolder> {
        let folder_id = id(&request.into_inner().folder_id)?;
        let found = org_folders::for_contribution(&self.state.pool, folder_id).await?;
        Ok(Response::new(self.org_folder(found).await?))
    }

    async fn create_contribution(
        &self,
        request: Request<pb::CreateContributionRequest>,
    ) -> Reply<pb::CreateItemResponse> {
        let req = request.into_inner();
        let contribution = Contribution::try_from(req.contributor.unwrap_or_default())?;
        let new = NewItem::try_from(req.item.unwrap_or_default())?;
        let created = contributions::create(self.uploads(), contribution, req.step_id, new).await?;
        self.created(created).await
    }

    async fn contribution_single_upload(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Reply<pb::SingleUpload> {
        let req = request.into_inner();
        let post = contributions::single_upload(
            self.uploads(),
            id(&req.contributor_id)?,
            id(&req.item_id)?,
        )
        .await?;
        Ok(Response::new(post.into()))
    }

    async fn contribution_part_urls(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Reply<pb::GetPartUrlsResponse> {
        let req = request.into_inner();
        let parts =
            contributions::part_urls(self.uploads(), id(&req.contributor_id)?, id(&req.item_id)?)
                .await?;
        Ok(Response::new(parts.into()))
    }

    async fn finish_contribution(
        &self,
        request: Request<pb::ContributionItemRequest>,
    ) -> Reply<pb::Item> {
        let req = request.into_inner();
        let finished = contributions::finish(
            &self.state.pool,
            &self.state.store,
            id(&req.contributor_id)?,
            id(&req.item_id)?,
        )
        .await?;
        Ok(Response::new(self.item(finished).await?))
    }

    async fn update_contribution(
        &self,
        request: Request<pb::UpdateContributionRequest>,
    ) -> Reply<pb::Item> {
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
            &self.state.pool,
            self.state.geocoder.as_ref(),
            id(&req.contributor_id)?,
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
    ) -> Reply<pb::ListItemsResponse> {
        let req = request.into_inner();
        let folder_id = id(&req.folder_id)?;
        let step_id = req.step_id.as_deref().map(id).transpose()?;
        let found = contributions::list(
            &self.state.pool,
            folder_id,
            id(&req.contributor_id)?,
            step_id,
        )
        .await?;
        Ok(Response::new(pb::ListItemsResponse {
            items: self.items(found).await?,
        }))
    }

    async fn list_receipt_keys(
        &self,
        _request: Request<pb::ListReceiptKeysRequest>,
    ) -> Reply<pb::ReceiptKeys> {
        Ok(Response::new(pb::ReceiptKeys {
            keys: self
                .state
                .config
                .receipts
                .public_keys()
                .into_iter()
                .map(|key| pb::ReceiptKey {
                    id: key.id,
                    algorithm: "Ed25519".to_owned(),
                    pem: key.pem,
                    raw: key.raw,
                    current: key.current,
                })
                .collect(),
            timestamp_authority_pem: self
                .state
                .config
                .timestamps
                .as_ref()
                .map(|tsa| tsa.ca_pem.clone())
                .unwrap_or_default(),
        }))
    }
}
