//! The systems sharing talks to, each behind a narrow trait with one real implementation: the
//! evidence service (folders, items and the originals' bytes, over gRPC), the payments service
//! (the purchase), S3 (the copies, under their own prefix) and the messages to recipients.

use std::{path::Path, sync::Arc, time::Duration};

use async_trait::async_trait;
use aws_sdk_s3::{Client, presigning::PresigningConfig, primitives::ByteStream};
use bytes::Bytes;
use chrono::{DateTime, Utc};
use evidentia_common::{
    grpc::Caller, mailer::Mailer, s3::S3Config, signing::PublicKey, sms::SmsSender, time,
};
use evidentia_proto::{
    evidence::v1::{self as evidence, evidence_service_client::EvidenceServiceClient},
    payments::v1::{self as payments, payments_service_client::PaymentsServiceClient},
};
use futures::{StreamExt, stream::BoxStream};
use tokio::io::AsyncWriteExt;
use tonic::{Code, transport::Channel};
use uuid::Uuid;

use crate::error::SharingError;

/// A folder as sharing needs it.
#[derive(Debug, Clone)]
pub struct FolderFacts {
    pub id: Uuid,
    pub name: String,
    pub expired: bool,
    pub used_bytes: i64,
    pub storage_expires_at: Option<prost_types::Timestamp>,
}

/// An item as it is when it is shared; kept with the share for verification.
#[derive(Debug, Clone)]
pub struct ItemFacts {
    pub id: Uuid,
    pub name: String,
    /// `image`, `video` or `audio`.
    pub media_type: &'static str,
    pub verified: bool,
    /// Its bytes failed evidence's size or SHA-256 check: it will never be verified.
    pub rejected: bool,
    pub sha256: String,
    pub captured_at: DateTime<Utc>,
    pub received_at: Option<DateTime<Utc>>,
    pub verified_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub duration_seconds: Option<f64>,
    pub file_size: i64,
    /// The verified original's signed receipt, when evidence signed one.
    pub receipt: Option<SignedReceipt>,
}

/// A receipt evidence signed: the exact bytes, the Ed25519 signature (base64) and its key's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedReceipt {
    pub payload: String,
    pub signature: String,
    pub key_id: String,
    /// The RFC 3161 token (DER) over the SHA-256 of the raw signature, once an authority gave
    /// one.
    pub timestamp: Option<Vec<u8>>,
}

/// What receipts are checked with: evidence's public keys, current first, and the certificate
/// of the time-stamping authority whose tokens receipts carry, when one is configured.
#[derive(Debug, Clone, Default)]
pub struct ReceiptKeys {
    pub keys: Vec<PublicKey>,
    pub timestamp_authority_pem: Option<String>,
}

#[async_trait]
pub trait Evidence: Send + Sync {
    /// The owner's folder; another user's is NotFound.
    async fn folder(&self, owner: Uuid, folder_id: Uuid) -> Result<FolderFacts, SharingError>;
    async fn items(&self, owner: Uuid, folder_id: Uuid) -> Result<Vec<ItemFacts>, SharingError>;
    /// The verified original's bytes as they arrive (memory stays flat).
    async fn original(
        &self,
        owner: Uuid,
        item_id: Uuid,
    ) -> Result<BoxStream<'static, Result<Bytes, SharingError>>, SharingError>;
    /// The public keys receipts are signed with, current first, and the timestamps' authority.
    async fn receipt_keys(&self) -> Result<ReceiptKeys, SharingError>;
    /// Keeps the owner's items (no delete, no retake) until the hold is released.
    async fn hold(&self, owner: Uuid, hold_id: Uuid, items: &[Uuid]) -> Result<(), SharingError>;
    async fn release_hold(&self, owner: Uuid, hold_id: Uuid) -> Result<(), SharingError>;
}

/// Writes the verified original into `to` as evidence streams it (memory stays flat).
pub async fn save_original(
    evidence: &dyn Evidence,
    owner: Uuid,
    item_id: Uuid,
    to: &Path,
) -> Result<(), SharingError> {
    let mut stream = evidence.original(owner, item_id).await?;
    let mut file = tokio::fs::File::create(to)
        .await
        .map_err(|e| SharingError::Internal(e.into()))?;
    while let Some(chunk) = stream.next().await {
        file.write_all(&chunk?)
            .await
            .map_err(|e| SharingError::Internal(e.into()))?;
    }
    file.flush()
        .await
        .map_err(|e| SharingError::Internal(e.into()))?;
    Ok(())
}

/// A step of an organization folder, with the contributor's own files when asked.
#[derive(Debug, Clone)]
pub struct StepFacts {
    pub id: Uuid,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<&'static str>,
    pub min_files: i32,
    pub max_files: i32,
}

/// An organization folder as a contribution link sees it.
#[derive(Debug, Clone)]
pub struct OrgFolderFacts {
    pub id: Uuid,
    pub name: String,
    pub expired: bool,
    pub steps: Vec<StepFacts>,
}

/// A contributor's file, as evidence holds it.
#[derive(Debug, Clone)]
pub struct SubmissionFacts {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub step_id: Option<Uuid>,
    pub name: String,
    pub media_type: &'static str,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    /// `awaiting_upload`, `uploaded`, `verified` or `rejected`.
    pub status: &'static str,
    pub rejection_reason: String,
    pub captured_at: Option<DateTime<Utc>>,
    pub received_at: Option<DateTime<Utc>>,
    pub verified_at: Option<DateTime<Utc>>,
    pub address: String,
}

/// A contributed file as the device describes it.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    pub folder_id: Uuid,
    pub step_id: Uuid,
    pub client_id: String,
    pub name: String,
    pub media_type: String,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    pub captured_at: Option<prost_types::Timestamp>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
}

/// Who sends a contribution: sharing's contributor id, the proven address, the link.
#[derive(Debug, Clone)]
pub struct ContributorRef {
    pub id: Uuid,
    pub email: String,
    pub link_id: Uuid,
}

/// How the bytes of a contribution go up.
#[derive(Debug, Clone)]
pub enum SubmissionUpload {
    Single,
    Multipart,
}

#[derive(Debug, Clone)]
pub struct Parts {
    pub upload_id: String,
    pub part_size: i64,
    pub part_count: i32,
    pub urls: Vec<(i32, String)>,
    pub completed: Vec<i32>,
}

/// Evidence's organization folders, for contribution links and their contributors.
#[async_trait]
pub trait OrganizationFolders: Send + Sync {
    /// The folder as the participant `member` reaches it (`NotFound` for anyone else's).
    async fn folder_of_member(
        &self,
        member: Uuid,
        folder_id: Uuid,
    ) -> Result<OrgFolderFacts, SharingError>;
    /// The folder a link names (no caller: the link was checked).
    async fn folder(&self, folder_id: Uuid) -> Result<OrgFolderFacts, SharingError>;
    async fn create(
        &self,
        contributor: &ContributorRef,
        new: NewSubmission,
    ) -> Result<(SubmissionFacts, Option<SubmissionUpload>), SharingError>;
    async fn single_upload(
        &self,
        contributor: Uuid,
        item: Uuid,
    ) -> Result<(String, Vec<(String, String)>), SharingError>;
    async fn parts(&self, contributor: Uuid, item: Uuid) -> Result<Parts, SharingError>;
    async fn finish(&self, contributor: Uuid, item: Uuid) -> Result<SubmissionFacts, SharingError>;
    async fn update(
        &self,
        contributor: Uuid,
        item: Uuid,
        name: Option<String>,
        place: Option<(f64, f64)>,
    ) -> Result<SubmissionFacts, SharingError>;
    async fn list(
        &self,
        contributor: Uuid,
        folder_id: Uuid,
        step_id: Option<Uuid>,
    ) -> Result<Vec<SubmissionFacts>, SharingError>;
}

#[async_trait]
pub trait Payments: Send + Sync {
    async fn pay(
        &self,
        owner: Uuid,
        request: payments::PayRequest,
    ) -> Result<payments::PayResponse, SharingError>;
}

#[async_trait]
pub trait CopyStore: Send + Sync {
    async fn put_file(&self, key: &str, path: &Path, content_type: &str) -> anyhow::Result<()>;
    /// A short-lived GET of a copy; with a file name, the browser saves it under that name.
    async fn presign_get(&self, key: &str, download_as: Option<&str>) -> anyhow::Result<String>;
    /// A copy's bytes as they arrive (memory stays flat).
    async fn get(&self, key: &str) -> anyhow::Result<BoxStream<'static, std::io::Result<Bytes>>>;
    async fn delete(&self, keys: Vec<String>) -> anyhow::Result<()>;
}

/// A status of another service: NotFound stays ours; the rest goes to the client as it is.
fn upstream(status: tonic::Status) -> SharingError {
    match status.code() {
        Code::NotFound => SharingError::NotFound,
        _ => SharingError::Upstream(status),
    }
}

fn as_user(owner: Uuid) -> Caller {
    Caller {
        user_id: Some(owner),
        ..Caller::default()
    }
}

pub struct EvidenceGrpc(pub EvidenceServiceClient<Channel>);

fn media_type(value: i32) -> &'static str {
    match evidence::MediaType::try_from(value) {
        Ok(evidence::MediaType::Video) => "video",
        Ok(evidence::MediaType::Audio) => "audio",
        _ => "image",
    }
}

fn media_types(values: &[i32]) -> Vec<&'static str> {
    values.iter().map(|m| media_type(*m)).collect()
}

fn org_folder(found: evidence::OrganizationFolder) -> Result<OrgFolderFacts, SharingError> {
    let folder = found.folder.unwrap_or_default();
    Ok(OrgFolderFacts {
        id: parse_id(&folder.id)?,
        name: folder.name,
        expired: folder.expired,
        steps: found
            .steps
            .into_iter()
            .map(|s| {
                Ok(StepFacts {
                    id: parse_id(&s.id)?,
                    media_types: media_types(&s.media_types),
                    name: s.name,
                    instructions: s.instructions,
                    min_files: s.min_files,
                    max_files: s.max_files,
                })
            })
            .collect::<Result<_, SharingError>>()?,
    })
}

fn parse_id(value: &str) -> Result<Uuid, SharingError> {
    Uuid::parse_str(value).map_err(|e| SharingError::Internal(e.into()))
}

fn submission(item: evidence::Item) -> Result<SubmissionFacts, SharingError> {
    let status = match evidence::ItemStatus::try_from(item.status) {
        Ok(evidence::ItemStatus::Uploaded) => "uploaded",
        Ok(evidence::ItemStatus::Verified) => "verified",
        Ok(evidence::ItemStatus::Rejected) => "rejected",
        _ => "awaiting_upload",
    };
    Ok(SubmissionFacts {
        id: parse_id(&item.id)?,
        folder_id: parse_id(&item.folder_id)?,
        step_id: item.step_id.as_deref().map(parse_id).transpose()?,
        name: item.name,
        media_type: media_type(item.media_type),
        mime_type: item.mime_type,
        file_size: item.file_size,
        sha256: item.sha256,
        status,
        rejection_reason: item.rejection_reason,
        captured_at: item.captured_at.as_ref().and_then(time::datetime),
        received_at: item.received_at.as_ref().and_then(time::datetime),
        verified_at: item.verified_at.as_ref().and_then(time::datetime),
        address: item.address,
    })
}

fn media_code(value: &str) -> i32 {
    let media = match value {
        "image" => evidence::MediaType::Image,
        "video" => evidence::MediaType::Video,
        "audio" => evidence::MediaType::Audio,
        _ => evidence::MediaType::Unspecified,
    };
    media as i32
}

#[async_trait]
impl OrganizationFolders for EvidenceGrpc {
    async fn folder_of_member(
        &self,
        member: Uuid,
        folder_id: Uuid,
    ) -> Result<OrgFolderFacts, SharingError> {
        let found = self
            .0
            .clone()
            .get_organization_folder(as_user(member).request(
                evidence::GetOrganizationFolderRequest {
                    folder_id: folder_id.to_string(),
                },
            ))
            .await
            .map_err(upstream)?
            .into_inner();
        org_folder(found)
    }

    async fn folder(&self, folder_id: Uuid) -> Result<OrgFolderFacts, SharingError> {
        let found = self
            .0
            .clone()
            .get_contribution_folder(evidence::GetContributionFolderRequest {
                folder_id: folder_id.to_string(),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        org_folder(found)
    }

    async fn create(
        &self,
        contributor: &ContributorRef,
        new: NewSubmission,
    ) -> Result<(SubmissionFacts, Option<SubmissionUpload>), SharingError> {
        let created = self
            .0
            .clone()
            .create_contribution(evidence::CreateContributionRequest {
                contributor: Some(evidence::Contributor {
                    contributor_id: contributor.id.to_string(),
                    email: contributor.email.clone(),
                    link_id: contributor.link_id.to_string(),
                }),
                step_id: new.step_id.to_string(),
                item: Some(evidence::CreateItemRequest {
                    folder_id: new.folder_id.to_string(),
                    name: new.name,
                    media_type: media_code(&new.media_type),
                    mime_type: new.mime_type,
                    file_size: new.file_size,
                    sha256: new.sha256,
                    captured_at: new.captured_at,
                    latitude: new.latitude,
                    longitude: new.longitude,
                    duration_seconds: new.duration_seconds,
                    client_id: Some(new.client_id),
                    section: None,
                    step_id: None,
                }),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        let upload = created.upload.map(|u| match u {
            evidence::create_item_response::Upload::Single(_) => SubmissionUpload::Single,
            evidence::create_item_response::Upload::Multipart(_) => SubmissionUpload::Multipart,
        });
        Ok((submission(created.item.unwrap_or_default())?, upload))
    }

    async fn single_upload(
        &self,
        contributor: Uuid,
        item: Uuid,
    ) -> Result<(String, Vec<(String, String)>), SharingError> {
        let post = self
            .0
            .clone()
            .contribution_single_upload(evidence::ContributionItemRequest {
                item_id: item.to_string(),
                contributor_id: contributor.to_string(),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        let mut fields: Vec<(String, String)> = post.fields.into_iter().collect();
        fields.sort();
        Ok((post.url, fields))
    }

    async fn parts(&self, contributor: Uuid, item: Uuid) -> Result<Parts, SharingError> {
        let parts = self
            .0
            .clone()
            .contribution_part_urls(evidence::ContributionItemRequest {
                item_id: item.to_string(),
                contributor_id: contributor.to_string(),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        Ok(Parts {
            upload_id: parts.upload_id,
            part_size: parts.part_size,
            part_count: parts.part_count,
            urls: parts
                .urls
                .into_iter()
                .map(|u| (u.part_number, u.url))
                .collect(),
            completed: parts.completed_parts,
        })
    }

    async fn finish(&self, contributor: Uuid, item: Uuid) -> Result<SubmissionFacts, SharingError> {
        let item = self
            .0
            .clone()
            .finish_contribution(evidence::ContributionItemRequest {
                item_id: item.to_string(),
                contributor_id: contributor.to_string(),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        submission(item)
    }

    async fn update(
        &self,
        contributor: Uuid,
        item: Uuid,
        name: Option<String>,
        place: Option<(f64, f64)>,
    ) -> Result<SubmissionFacts, SharingError> {
        let item = self
            .0
            .clone()
            .update_contribution(evidence::UpdateContributionRequest {
                item_id: item.to_string(),
                contributor_id: contributor.to_string(),
                name,
                latitude: place.map(|p| p.0),
                longitude: place.map(|p| p.1),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        submission(item)
    }

    async fn list(
        &self,
        contributor: Uuid,
        folder_id: Uuid,
        step_id: Option<Uuid>,
    ) -> Result<Vec<SubmissionFacts>, SharingError> {
        let found = self
            .0
            .clone()
            .list_contributions(evidence::ListContributionsRequest {
                folder_id: folder_id.to_string(),
                contributor_id: contributor.to_string(),
                step_id: step_id.map(|s| s.to_string()),
            })
            .await
            .map_err(upstream)?
            .into_inner();
        found.items.into_iter().map(submission).collect()
    }
}

#[async_trait]
impl Evidence for EvidenceGrpc {
    async fn folder(&self, owner: Uuid, folder_id: Uuid) -> Result<FolderFacts, SharingError> {
        let folder = self
            .0
            .clone()
            .get_folder(as_user(owner).request(evidence::GetFolderRequest {
                folder_id: folder_id.to_string(),
            }))
            .await
            .map_err(upstream)?
            .into_inner();
        Ok(FolderFacts {
            id: folder_id,
            name: folder.name,
            expired: folder.expired,
            used_bytes: folder.used_bytes,
            storage_expires_at: folder.storage_expires_at,
        })
    }

    async fn items(&self, owner: Uuid, folder_id: Uuid) -> Result<Vec<ItemFacts>, SharingError> {
        let items = self
            .0
            .clone()
            .list_items(as_user(owner).request(evidence::ListItemsRequest {
                folder_id: folder_id.to_string(),
            }))
            .await
            .map_err(upstream)?
            .into_inner()
            .items;
        Ok(items
            .into_iter()
            .filter_map(|item| {
                Some(ItemFacts {
                    id: Uuid::parse_str(&item.id).ok()?,
                    media_type: media_type(item.media_type),
                    verified: item.status == evidence::ItemStatus::Verified as i32,
                    rejected: item.status == evidence::ItemStatus::Rejected as i32,
                    captured_at: item
                        .captured_at
                        .as_ref()
                        .and_then(time::datetime)
                        .unwrap_or_default(),
                    received_at: item.received_at.as_ref().and_then(time::datetime),
                    verified_at: item.verified_at.as_ref().and_then(time::datetime),
                    name: item.name,
                    sha256: item.sha256,
                    latitude: item.latitude,
                    longitude: item.longitude,
                    city: item.city,
                    address: item.address,
                    duration_seconds: item.duration_seconds,
                    file_size: item.file_size,
                    receipt: item.receipt.map(|r| SignedReceipt {
                        payload: r.payload,
                        signature: r.signature,
                        key_id: r.key_id,
                        timestamp: (!r.timestamp_token.is_empty()).then_some(r.timestamp_token),
                    }),
                })
            })
            .collect())
    }

    async fn original(
        &self,
        owner: Uuid,
        item_id: Uuid,
    ) -> Result<BoxStream<'static, Result<Bytes, SharingError>>, SharingError> {
        let stream = self
            .0
            .clone()
            .read_original(as_user(owner).request(evidence::ReadOriginalRequest {
                item_id: item_id.to_string(),
            }))
            .await
            .map_err(upstream)?
            .into_inner();
        Ok(stream
            .map(|chunk| chunk.map(|c| Bytes::from(c.data)).map_err(upstream))
            .boxed())
    }

    async fn receipt_keys(&self) -> Result<ReceiptKeys, SharingError> {
        let published = self
            .0
            .clone()
            .list_receipt_keys(evidence::ListReceiptKeysRequest {})
            .await
            .map_err(upstream)?
            .into_inner();
        Ok(ReceiptKeys {
            keys: published
                .keys
                .into_iter()
                .map(|k| PublicKey {
                    id: k.id,
                    pem: k.pem,
                    raw: k.raw,
                    current: k.current,
                })
                .collect(),
            timestamp_authority_pem: Some(published.timestamp_authority_pem)
                .filter(|pem| !pem.is_empty()),
        })
    }

    async fn hold(&self, owner: Uuid, hold_id: Uuid, items: &[Uuid]) -> Result<(), SharingError> {
        self.0
            .clone()
            .hold_items(as_user(owner).request(evidence::HoldItemsRequest {
                hold_id: hold_id.to_string(),
                item_ids: items.iter().map(Uuid::to_string).collect(),
            }))
            .await
            .map_err(upstream)?;
        Ok(())
    }

    async fn release_hold(&self, owner: Uuid, hold_id: Uuid) -> Result<(), SharingError> {
        self.0
            .clone()
            .release_hold(as_user(owner).request(evidence::ReleaseHoldRequest {
                hold_id: hold_id.to_string(),
            }))
            .await
            .map_err(upstream)?;
        Ok(())
    }
}

pub struct PaymentsGrpc(pub PaymentsServiceClient<Channel>);

#[async_trait]
impl Payments for PaymentsGrpc {
    async fn pay(
        &self,
        owner: Uuid,
        request: payments::PayRequest,
    ) -> Result<payments::PayResponse, SharingError> {
        Ok(self
            .0
            .clone()
            .pay(as_user(owner).request(request))
            .await
            .map_err(upstream)?
            .into_inner())
    }
}

/// Copies in the media bucket under `shared-copies/`, a prefix no other service writes.
pub struct S3Copies {
    client: Client,
    bucket: String,
    ttl: Duration,
}

pub const COPIES_PREFIX: &str = "shared-copies/";

impl S3Copies {
    pub fn new(config: &S3Config, ttl: Duration) -> Self {
        Self {
            client: config.client(),
            bucket: config.bucket.clone(),
            ttl,
        }
    }
}

#[async_trait]
impl CopyStore for S3Copies {
    async fn put_file(&self, key: &str, path: &Path, content_type: &str) -> anyhow::Result<()> {
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .body(ByteStream::from_path(path).await?)
            .send()
            .await?;
        Ok(())
    }

    async fn presign_get(&self, key: &str, download_as: Option<&str>) -> anyhow::Result<String> {
        let mut request = self.client.get_object().bucket(&self.bucket).key(key);
        if let Some(name) = download_as {
            // Only the characters a file name needs: the header must stay well formed.
            let safe: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ' ') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            request =
                request.response_content_disposition(format!("attachment; filename=\"{safe}\""));
        }
        let presigned = request
            .presigned(PresigningConfig::expires_in(self.ttl)?)
            .await?;
        Ok(presigned.uri().to_owned())
    }

    async fn get(&self, key: &str) -> anyhow::Result<BoxStream<'static, std::io::Result<Bytes>>> {
        let object = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await?;
        Ok(tokio_util::io::ReaderStream::new(object.body.into_async_read()).boxed())
    }

    async fn delete(&self, keys: Vec<String>) -> anyhow::Result<()> {
        for key in keys {
            self.client
                .delete_object()
                .bucket(&self.bucket)
                .key(&key)
                .send()
                .await?;
        }
        Ok(())
    }
}

/// Messages to recipients: e-mail, or SMS for a phone number.
#[derive(Clone)]
pub struct Messengers {
    pub mailer: Arc<dyn Mailer>,
    pub sms: Arc<dyn SmsSender>,
}

impl Messengers {
    pub async fn send(
        &self,
        channel: &str,
        address: &str,
        subject: &str,
        text: &str,
    ) -> anyhow::Result<()> {
        match channel {
            "sms" => self.sms.send(address, text).await,
            _ => self.mailer.send(address, subject, text).await,
        }
    }
}
