//! The systems sharing talks to, each behind a narrow trait with one real implementation: the
//! evidence service (folders, items and the originals' bytes, over gRPC), the payments service
//! (the purchase), S3 (the copies, under their own prefix) and the messages to recipients.

use std::{path::Path, sync::Arc, time::Duration};

use async_trait::async_trait;
use aws_sdk_s3::{Client, presigning::PresigningConfig, primitives::ByteStream};
use chrono::{DateTime, Utc};
use evidentia_common::{grpc::Caller, mailer::Mailer, s3::S3Config, sms::SmsSender, time};
use evidentia_proto::{
    evidence::v1::{self as evidence, evidence_service_client::EvidenceServiceClient},
    payments::v1::{self as payments, payments_service_client::PaymentsServiceClient},
};
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
    pub sha256: String,
    pub captured_at: DateTime<Utc>,
    pub received_at: Option<DateTime<Utc>>,
    pub verified_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub duration_seconds: Option<f64>,
}

#[async_trait]
pub trait Evidence: Send + Sync {
    /// The owner's folder; another user's is NotFound.
    async fn folder(&self, owner: Uuid, folder_id: Uuid) -> Result<FolderFacts, SharingError>;
    async fn items(&self, owner: Uuid, folder_id: Uuid) -> Result<Vec<ItemFacts>, SharingError>;
    /// Streams the verified original into `to`; memory stays flat.
    async fn read_original(
        &self,
        owner: Uuid,
        item_id: Uuid,
        to: &Path,
    ) -> Result<(), SharingError>;
    /// Keeps the owner's items (no delete, no retake) until the hold is released.
    async fn hold(&self, owner: Uuid, hold_id: Uuid, items: &[Uuid]) -> Result<(), SharingError>;
    async fn release_hold(&self, owner: Uuid, hold_id: Uuid) -> Result<(), SharingError>;
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
                })
            })
            .collect())
    }

    async fn read_original(
        &self,
        owner: Uuid,
        item_id: Uuid,
        to: &Path,
    ) -> Result<(), SharingError> {
        let mut stream = self
            .0
            .clone()
            .read_original(as_user(owner).request(evidence::ReadOriginalRequest {
                item_id: item_id.to_string(),
            }))
            .await
            .map_err(upstream)?
            .into_inner();
        let mut file = tokio::fs::File::create(to)
            .await
            .map_err(|e| SharingError::Internal(e.into()))?;
        while let Some(chunk) = stream.message().await.map_err(upstream)? {
            file.write_all(&chunk.data)
                .await
                .map_err(|e| SharingError::Internal(e.into()))?;
        }
        file.flush()
            .await
            .map_err(|e| SharingError::Internal(e.into()))?;
        Ok(())
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
