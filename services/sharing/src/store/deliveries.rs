//! `deliveries`: one per recipient of a share, and one for its public link.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub id: Uuid,
    pub share_id: Uuid,
    pub channel: String,
    pub address: String,
    pub sent_to: String,
    pub transaction_number: String,
    pub active: bool,
    pub state: String,
    pub created_at: DateTime<Utc>,
}

/// A delivery with its share's facts, for the recipient's side.
#[derive(Debug, Clone)]
pub struct Opened {
    pub delivery: DeliveryRow,
    pub owner_id: Uuid,
    pub folder_id: Uuid,
    pub folder_name: String,
    pub copy_type: String,
    pub generated_for: Option<String>,
    pub share_state: String,
}

pub struct NewDelivery<'a> {
    pub id: Uuid,
    pub share_id: Uuid,
    pub channel: &'a str,
    pub address: &'a str,
    pub sent_to: &'a str,
    pub transaction_number: &'a str,
}

/// Inserts the delivery; `false` when its transaction number is taken (draw another).
#[tracing::instrument(skip_all, fields(delivery.id = %d.id))]
pub async fn insert(conn: &mut PgConnection, d: &NewDelivery<'_>) -> sqlx::Result<bool> {
    let inserted = sqlx::query!(
        "INSERT INTO deliveries (id, share_id, channel, address, sent_to, transaction_number)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (transaction_number) DO NOTHING",
        d.id,
        d.share_id,
        d.channel,
        d.address,
        d.sent_to,
        d.transaction_number
    )
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn for_share(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<DeliveryRow>> {
    sqlx::query_as!(
        DeliveryRow,
        "SELECT id, share_id, channel, address, sent_to, transaction_number, active, state, created_at
         FROM deliveries WHERE share_id = $1 ORDER BY created_at, id",
        share_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(delivery.id = %id))]
pub async fn open(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Opened>> {
    let row = sqlx::query!(
        "SELECT d.id, d.share_id, d.channel, d.address, d.sent_to, d.transaction_number, d.active,
                d.state, d.created_at, s.owner_id, s.folder_id, s.folder_name, s.copy_type,
                s.generated_for, s.state AS share_state
         FROM deliveries d JOIN shares s ON s.id = d.share_id WHERE d.id = $1",
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| Opened {
        delivery: DeliveryRow {
            id: r.id,
            share_id: r.share_id,
            channel: r.channel,
            address: r.address,
            sent_to: r.sent_to,
            transaction_number: r.transaction_number,
            active: r.active,
            state: r.state,
            created_at: r.created_at,
        },
        owner_id: r.owner_id,
        folder_id: r.folder_id,
        folder_name: r.folder_name,
        copy_type: r.copy_type,
        generated_for: r.generated_for,
        share_state: r.share_state,
    }))
}

#[tracing::instrument(skip_all)]
pub async fn by_transaction_number(
    conn: &mut PgConnection,
    number: &str,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT d.id FROM deliveries d JOIN shares s ON s.id = d.share_id
         WHERE d.transaction_number = $1 AND s.state IN ('active', 'revoked')",
        number
    )
    .fetch_optional(conn)
    .await
}

/// Moves a recipient forward (sent -> opened -> code_checked), never back.
#[tracing::instrument(skip_all, fields(delivery.id = %id))]
pub async fn advance(conn: &mut PgConnection, id: Uuid, state: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE deliveries SET state = $2
         WHERE id = $1 AND (state = 'sent' OR (state = 'opened' AND $2 = 'code_checked'))",
        id,
        state
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn link_of(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Option<DeliveryRow>> {
    sqlx::query_as!(
        DeliveryRow,
        "SELECT id, share_id, channel, address, sent_to, transaction_number, active, state, created_at
         FROM deliveries WHERE share_id = $1 AND channel = 'link'",
        share_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(delivery.id = %id))]
pub async fn set_active(conn: &mut PgConnection, id: Uuid, active: bool) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE deliveries SET active = $2 WHERE id = $1",
        id,
        active
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Recipients whose message has not gone yet, locked for the sender that takes them.
#[tracing::instrument(skip_all)]
pub async fn claim_unsent(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<Opened>> {
    let ids = sqlx::query_scalar!(
        "SELECT d.id FROM deliveries d JOIN shares s ON s.id = d.share_id
         WHERE d.notified_at IS NULL AND d.channel <> 'link' AND s.state = 'active'
         ORDER BY d.created_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED",
        limit
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut opened = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(found) = open(conn, id).await? {
            opened.push(found);
        }
    }
    Ok(opened)
}

#[tracing::instrument(skip_all, fields(delivery.id = %id))]
pub async fn mark_notified(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE deliveries SET notified_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(delivery.id = %id))]
pub async fn unmark_notified(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("UPDATE deliveries SET notified_at = NULL WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A scheduled share's recipients, replaced before its release (no copy exists yet).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn remove_recipients(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM deliveries WHERE share_id = $1 AND channel <> 'link'",
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks every recipient of the share as told (a futuregram sends its own links on release).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn mark_all_notified(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE deliveries SET notified_at = now() WHERE share_id = $1 AND notified_at IS NULL",
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
