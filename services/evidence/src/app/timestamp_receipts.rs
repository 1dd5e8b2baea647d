//! Timestamps receipts when an authority is configured: receipts waiting for one are sent in
//! turn, each token checked to be for its receipt's signature and stored beside it. Verification
//! never waits on the authority: a receipt is signed and stands at once, and an authority that is
//! down only delays its timestamp until it answers again.

use std::time::Duration;

use base64::{Engine as _, engine::general_purpose::STANDARD};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;

use crate::{store::items, timestamps::Tsa};

/// Receipts sent per round (the rest wait for the next one).
const BATCH: i64 = 50;

/// Stamps waiting receipts every `every` until shut down.
pub async fn run(pool: PgPool, tsa: Tsa, every: Duration, shutdown: CancellationToken) {
    loop {
        match stamp_waiting(&pool, &tsa).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(count = n, "receipts timestamped"),
            Err(err) => tracing::warn!(error = ?err, "timestamping receipts failed"),
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(every.max(Duration::from_millis(100))) => {}
        }
    }
}

/// One round: how many receipts got their timestamp. The first failure ends the round (the
/// authority is likely down; the others would fail alike).
pub async fn stamp_waiting(pool: &PgPool, tsa: &Tsa) -> anyhow::Result<usize> {
    let waiting = {
        let mut conn = pool.acquire().await?;
        items::unstamped_receipts(&mut conn, BATCH).await?
    };
    let mut stamped = 0;
    for (id, signature) in waiting {
        let raw = STANDARD.decode(&signature)?;
        let digest: [u8; 32] = Sha256::digest(&raw).into();
        let stamp = tsa.stamp(&digest).await?;
        let mut conn = pool.acquire().await?;
        items::set_receipt_timestamp(&mut conn, id, &signature, &stamp.token, stamp.at).await?;
        stamped += 1;
    }
    Ok(stamped)
}
