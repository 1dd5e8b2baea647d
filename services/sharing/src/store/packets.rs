//! `packet_downloads`: the links evidence packets (an owner's or a recipient's) are downloaded by.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq)]
pub struct PacketDownload {
    pub owner_id: Uuid,
    pub folder_id: Uuid,
    /// Empty: the whole folder.
    pub item_ids: Vec<Uuid>,
    /// A recipient's packet of the copies this delivery received; `None`: the owner's.
    pub delivery_id: Option<Uuid>,
    pub expires_at: DateTime<Utc>,
}

/// Records a download link (and drops links that expired, so the table stays small).
#[tracing::instrument(skip_all, fields(folder.id = %d.folder_id))]
pub async fn insert(
    conn: &mut PgConnection,
    token_hash: &[u8],
    d: &PacketDownload,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM packet_downloads WHERE expires_at < $1", now)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "INSERT INTO packet_downloads
             (token_hash, owner_id, folder_id, item_ids, delivery_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
        token_hash,
        d.owner_id,
        d.folder_id,
        &d.item_ids,
        d.delivery_id,
        d.expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The download a link's secret opens, while it has not expired; the link is spent by it, so a
/// link seen again (in a log, a history) opens nothing.
#[tracing::instrument(skip_all)]
pub async fn take(
    conn: &mut PgConnection,
    token_hash: &[u8],
    now: DateTime<Utc>,
) -> sqlx::Result<Option<PacketDownload>> {
    sqlx::query_as!(
        PacketDownload,
        "DELETE FROM packet_downloads WHERE token_hash = $1 AND expires_at > $2
         RETURNING owner_id, folder_id, item_ids, delivery_id, expires_at",
        token_hash,
        now
    )
    .fetch_optional(conn)
    .await
}
