//! The sweeper, every `EVIDENCE_SWEEP_INTERVAL_SECONDS` (ten minutes):
//!
//! - uploads started and never finished are aborted after a day (configurable): the parts are
//!   removed from S3 and the item is rejected, so nothing half-written lingers (an abandoned
//!   retake leaves the item rejected too, still serving its previous verified file);
//! - folders whose storage date has passed are marked expired, publishing `FolderExpired` once
//!   per expiry (an extension clears the mark);
//! - expired folders past the grace period (`EVIDENCE_EXPIRED_RETENTION_DAYS`) lose their files:
//!   objects and thumbnails are deleted from S3, the items are marked purged and leave the usage;
//! - contributions a participant declined are deleted once `EVIDENCE_DECLINED_RETENTION_SECONDS`
//!   have passed (a week by default: time to undo a mistaken decline by asking again).

use std::{sync::Arc, time::Duration};

use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::FolderExpired;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    app::items,
    config::Config,
    domain::Item,
    error::EvidenceError,
    storage::MediaStore,
    store::{self, folders, usage},
};

pub const ABANDONED: &str = "The upload was not finished in time.";
pub const EXPIRED_UNFINISHED: &str = "The storage date passed before the upload finished.";

/// Aborts what is older than `after_hours`; returns how many items it closed.
pub async fn sweep(pool: &PgPool, store: &MediaStore, after_hours: i64) -> anyhow::Result<usize> {
    let stale =
        store::items::stale_uploads(&mut *pool.acquire().await?, i32::try_from(after_hours)?)
            .await?;
    for upload in &stale {
        if let Some(upload_id) = &upload.upload_id
            && let Err(err) = store.abort_multipart(&upload.object_key, upload_id).await
        {
            tracing::warn!(item.id = %upload.id, error = ?err, "abort of an abandoned upload failed; S3's own expiry will remove it");
        }
        store::items::reject_unfinished(&mut *pool.acquire().await?, upload.id, ABANDONED).await?;
    }
    Ok(stale.len())
}

/// Marks the folders whose storage date has passed and publishes `FolderExpired` for each, in
/// one transaction (so exactly once per expiry, whatever the number of replicas).
pub async fn expire(pool: &PgPool, retention_days: i64) -> anyhow::Result<usize> {
    let mut tx = pool.begin().await?;
    let expired = folders::mark_expired(&mut tx).await?;
    for folder in &expired {
        let date = folder.storage_expires_at;
        outbox::enqueue(
            &mut tx,
            &FolderExpired {
                folder_id: folder.id.to_string(),
                owner_id: folder.owner_id.to_string(),
                storage_expires_at: Some(timestamp(date)),
                files_deleted_after: Some(timestamp(date + chrono::Duration::days(retention_days))),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(expired.len())
}

/// Deletes the files of folders expired longer than `retention_days`; returns how many folders.
pub async fn purge(
    pool: &PgPool,
    store: &MediaStore,
    retention_days: i64,
) -> anyhow::Result<usize> {
    let due =
        folders::due_for_purge(&mut *pool.acquire().await?, i32::try_from(retention_days)?).await?;
    let mut purged = 0;
    for folder in due {
        if purge_folder(pool, store, folder, retention_days).await? {
            purged += 1;
        }
    }
    Ok(purged)
}

/// Purges one folder under its row lock (an extension waits, then finds it purged); the S3
/// deletes come before the commit, and a failure leaves the folder for the next sweep (deleting
/// again is harmless).
async fn purge_folder(
    pool: &PgPool,
    store: &MediaStore,
    folder: Uuid,
    retention_days: i64,
) -> anyhow::Result<bool> {
    let mut tx = pool.begin().await?;
    let owner = folders::lock_for_purge(&mut tx, folder, i32::try_from(retention_days)?).await?;
    let Some(owner) = owner else {
        return Ok(false); // extended or purged meanwhile
    };
    let found: Vec<Item> = items::in_folder(&mut tx, owner, folder).await?;
    let found: Vec<&Item> = found.iter().filter(|i| i.purged_at.is_none()).collect();
    for item in &found {
        for (key, upload_id) in item.objects() {
            match upload_id {
                Some(upload_id) => {
                    if let Err(err) = store.abort_multipart(&key, &upload_id).await {
                        tracing::warn!(object = %key, error = ?err, "abort of an expired folder's upload failed");
                    }
                }
                None => store.delete(&key).await?,
            }
        }
    }
    let (files, bytes) = found
        .iter()
        .filter_map(|i| i.counted_bytes())
        .fold((0i64, 0i64), |(n, b), size| (n + 1, b + size));
    store::items::mark_purged(&mut tx, folder, EXPIRED_UNFINISHED).await?;
    usage::remove_files(&mut tx, owner, files, bytes).await?;
    folders::mark_purged(&mut tx, folder).await?;
    tx.commit().await?;
    tracing::info!(folder.id = %folder, files, "expired folder's files deleted");
    Ok(true)
}

/// Deletes contributions declined more than `retention_seconds` ago; returns how many.
pub async fn remove_declined(
    pool: &PgPool,
    store: &MediaStore,
    retention_seconds: i64,
) -> anyhow::Result<usize> {
    let due = store::items::declined_before(&mut *pool.acquire().await?, retention_seconds as f64)
        .await?;
    let mut removed = 0;
    for declined in due {
        let mut tx = pool.begin().await?;
        let item = match items::remove(&mut tx, declined.owner_id, declined.id).await {
            Ok(item) => item,
            Err(EvidenceError::NotFound) => continue,
            Err(err) => return Err(anyhow::anyhow!("{err}")),
        };
        tx.commit().await?;
        store.remove_all(item.objects()).await;
        removed += 1;
    }
    Ok(removed)
}

/// Sweeps every `sweep_interval_seconds` until `shutdown`.
pub async fn run(
    pool: PgPool,
    store: Arc<MediaStore>,
    config: Arc<Config>,
    shutdown: CancellationToken,
) {
    let storage = &config.storage;
    loop {
        match sweep(&pool, &store, config.uploads.abandon_after_hours).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(count = n, "abandoned uploads aborted"),
            Err(err) => tracing::warn!(error = ?err, "sweeping abandoned uploads failed"),
        }
        match expire(&pool, storage.expired_retention_days).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(count = n, "folders expired"),
            Err(err) => tracing::warn!(error = ?err, "expiring folders failed"),
        }
        if let Err(err) = purge(&pool, &store, storage.expired_retention_days).await {
            tracing::warn!(error = ?err, "purging expired folders failed");
        }
        match remove_declined(
            &pool,
            &store,
            config.contributions.declined_retention_seconds,
        )
        .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(count = n, "declined contributions deleted"),
            Err(err) => tracing::warn!(error = ?err, "deleting declined contributions failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(storage.sweep_interval_seconds)) => {}
        }
    }
}
