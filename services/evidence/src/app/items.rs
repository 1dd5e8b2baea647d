//! Evidence items once registered: read (with short-lived links to their files), listed,
//! renamed, deleted, downloaded, and their verified originals streamed to the sharing service.

use std::time::Duration;

use aws_sdk_s3::primitives::ByteStream;
use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::holds,
    config::{StoragePolicy, UploadPolicy},
    domain::{Item, Name},
    error::EvidenceError,
    storage::MediaStore,
    store::{folders, items, usage},
};

/// An item as its reader sees it now: presigned GETs of its file and thumbnail while they may
/// be opened, and where its folder's storage date stands.
#[derive(Debug, Clone)]
pub struct ItemView {
    pub item: Item,
    pub file_url: Option<String>,
    pub thumbnail_url: Option<String>,
    pub expired: bool,
    pub expire_soon: bool,
}

/// How long a presigned URL lives.
pub fn presign_ttl(uploads: &UploadPolicy) -> Duration {
    Duration::from_secs(uploads.presign_ttl_seconds)
}

/// When a presigned URL made now stops working.
pub fn presign_expiry(uploads: &UploadPolicy) -> DateTime<Utc> {
    Utc::now()
        + chrono::Duration::seconds(i64::try_from(uploads.presign_ttl_seconds).unwrap_or(900))
}

/// The item with its links (none once its folder has expired).
pub async fn view(
    store: &MediaStore,
    policy: &StoragePolicy,
    uploads: &UploadPolicy,
    item: Item,
) -> Result<ItemView, EvidenceError> {
    let now = Utc::now();
    let expired = policy.expired(item.storage_expires_at, now);
    let expire_soon = policy.expire_soon(item.storage_expires_at, now);
    let ttl = presign_ttl(uploads);
    let (file_url, thumbnail_url) = match item.readable() {
        Some((file, thumbnail)) if !expired => {
            let file = store.presign_get(file, ttl).await?;
            let thumbnail = match thumbnail {
                Some(key) => Some(store.presign_get(key, ttl).await?),
                None => None,
            };
            (Some(file), thumbnail)
        }
        _ => (None, None),
    };
    Ok(ItemView {
        item,
        file_url,
        thumbnail_url,
        expired,
        expire_soon,
    })
}

/// The owner's item; another user's is `NotFound`.
pub async fn get(pool: &PgPool, owner: Uuid, id: Uuid) -> Result<Item, EvidenceError> {
    owned(&mut *pool.acquire().await?, owner, id).await
}

/// `get` on the caller's connection.
pub(crate) async fn owned(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Item, EvidenceError> {
    items::get(conn, owner, id)
        .await?
        .ok_or(EvidenceError::NotFound)
}

/// The items of the owner's folder, oldest first.
pub async fn list(pool: &PgPool, owner: Uuid, folder_id: Uuid) -> Result<Vec<Item>, EvidenceError> {
    in_folder(&mut *pool.acquire().await?, owner, folder_id).await
}

/// `list` on the caller's connection.
pub(crate) async fn in_folder(
    conn: &mut PgConnection,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<Vec<Item>, EvidenceError> {
    folders::get(conn, owner, folder_id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    Ok(items::of_folder(conn, owner, folder_id).await?)
}

pub async fn rename(
    pool: &PgPool,
    owner: Uuid,
    id: Uuid,
    name: &Name,
) -> Result<Item, EvidenceError> {
    items::rename(&mut *pool.acquire().await?, owner, id, name.as_str())
        .await?
        .ok_or(EvidenceError::NotFound)
}

/// Deletes the owner's item (a verified one leaves the usage), then removes its objects from S3
/// once the transaction has committed.
#[tracing::instrument(skip_all, fields(user.id = %owner, item.id = %id))]
pub async fn delete(
    pool: &PgPool,
    store: &MediaStore,
    owner: Uuid,
    id: Uuid,
) -> Result<(), EvidenceError> {
    let mut tx = pool.begin().await?;
    let deleted = remove(&mut tx, owner, id).await?;
    tx.commit().await?;
    store.remove_all(deleted.objects()).await;
    Ok(())
}

/// Deletes the owner's item in the caller's transaction; returns it so its objects can be
/// removed from S3 after the commit.
pub(crate) async fn remove(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Item, EvidenceError> {
    // Locked first, so no hold is placed between the check and the delete.
    items::lock_owned(conn, owner, id).await?;
    holds::refuse_item(conn, id).await?;
    let item = items::delete(conn, owner, id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    if let Some(bytes) = item.counted_bytes() {
        usage::remove_files(conn, owner, 1, bytes).await?;
    }
    Ok(item)
}

/// A presigned GET to download the owner's stored file, unless its folder has expired.
pub async fn download(
    pool: &PgPool,
    store: &MediaStore,
    policy: &StoragePolicy,
    uploads: &UploadPolicy,
    owner: Uuid,
    id: Uuid,
) -> Result<(String, DateTime<Utc>), EvidenceError> {
    let item = get(pool, owner, id).await?;
    if policy.expired(item.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    let Some((key, _)) = item.readable() else {
        return Err(EvidenceError::WrongState(
            "The file has not been uploaded yet.",
        ));
    };
    let url = store.presign_get(key, presign_ttl(uploads)).await?;
    Ok((url, presign_expiry(uploads)))
}

/// The owner's verified original as a stream, for the sharing service; refused like a download
/// once the folder has expired.
pub async fn original(
    pool: &PgPool,
    store: &MediaStore,
    policy: &StoragePolicy,
    owner: Uuid,
    id: Uuid,
) -> Result<ByteStream, EvidenceError> {
    let item = get(pool, owner, id).await?;
    if policy.expired(item.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    if item.status != "verified" || item.purged_at.is_some() {
        return Err(EvidenceError::WrongState(
            "The file has not been verified yet.",
        ));
    }
    Ok(store.stream(&item.object_key).await?)
}
