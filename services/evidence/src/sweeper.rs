//! Uploads that were started and never finished are aborted after a day (configurable): the
//! parts are removed from S3 and the item is rejected, so nothing half-written lingers.

use std::{sync::Arc, time::Duration};

use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::storage::MediaStore;

pub const ABANDONED: &str = "The upload was not finished in time.";

/// Aborts what is older than `after_hours`; returns how many items it closed.
pub async fn sweep(pool: &PgPool, store: &MediaStore, after_hours: i64) -> anyhow::Result<usize> {
    let stale: Vec<(Uuid, String, Option<String>)> = sqlx::query_as(
        "SELECT id, object_key, upload_id FROM items \
         WHERE status = 'awaiting_upload' AND created_at < now() - make_interval(hours => $1::int) LIMIT 500",
    )
    .bind(i32::try_from(after_hours)?)
    .fetch_all(pool)
    .await?;
    for (id, key, upload_id) in &stale {
        if let Some(upload_id) = upload_id
            && let Err(err) = store.abort_multipart(key, upload_id).await
        {
            tracing::warn!(item.id = %id, error = ?err, "abort of an abandoned upload failed; S3's own expiry will remove it");
        }
        sqlx::query("UPDATE items SET status = 'rejected', rejection_reason = $2, updated_at = now() WHERE id = $1 AND status = 'awaiting_upload'")
            .bind(id)
            .bind(ABANDONED)
            .execute(pool)
            .await?;
    }
    Ok(stale.len())
}

/// Sweeps every ten minutes until `shutdown`.
pub async fn run(
    pool: PgPool,
    store: Arc<MediaStore>,
    after_hours: i64,
    shutdown: CancellationToken,
) {
    loop {
        match sweep(&pool, &store, after_hours).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(count = n, "abandoned uploads aborted"),
            Err(err) => tracing::warn!(error = ?err, "sweeping abandoned uploads failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(600)) => {}
        }
    }
}
