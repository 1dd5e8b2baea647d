//! `shares`, `share_items` and `share_requests` (the create-share idempotency record).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct ShareRow {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub folder_id: Uuid,
    pub folder_name: String,
    pub copy_type: String,
    pub generated_for: Option<String>,
    pub state: String,
    pub payment_transaction_number: Option<String>,
    pub created_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone)]
pub struct ShareItemRow {
    pub item_id: Uuid,
    pub position: i32,
    pub name: String,
    pub media_type: String,
    pub original_sha256: String,
    pub captured_at: DateTime<Utc>,
    pub received_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub duration_seconds: Option<f64>,
    pub receipt: Option<String>,
    pub receipt_signature: Option<String>,
    pub receipt_key_id: Option<String>,
}

#[derive(Debug, Clone)]
pub struct RequestRow {
    pub request_hash: String,
    pub share_id: Uuid,
}

#[tracing::instrument(skip_all)]
pub async fn find_request(
    conn: &mut PgConnection,
    owner: Uuid,
    key: &str,
) -> sqlx::Result<Option<RequestRow>> {
    sqlx::query_as!(
        RequestRow,
        "SELECT request_hash, share_id FROM share_requests
         WHERE owner_id = $1 AND idempotency_key = $2 FOR UPDATE",
        owner,
        key
    )
    .fetch_optional(conn)
    .await
}

/// Records the request's key for the share; false when a request with the same key recorded its
/// own first (a concurrent one: this waits for its transaction, and is false once it committed).
#[tracing::instrument(skip_all)]
pub async fn insert_request(
    conn: &mut PgConnection,
    owner: Uuid,
    key: &str,
    hash: &str,
    share_id: Uuid,
) -> sqlx::Result<bool> {
    let inserted = sqlx::query!(
        "INSERT INTO share_requests (owner_id, idempotency_key, request_hash, share_id)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        owner,
        key,
        hash,
        share_id
    )
    .execute(conn)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

pub struct NewShareRow<'a> {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub folder_id: Uuid,
    pub folder_name: &'a str,
    pub copy_type: &'a str,
    pub generated_for: Option<&'a str>,
}

#[tracing::instrument(skip_all, fields(share.id = %share.id))]
pub async fn insert(conn: &mut PgConnection, share: &NewShareRow<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO shares (id, owner_id, folder_id, folder_name, copy_type, generated_for, state)
         VALUES ($1, $2, $3, $4, $5, $6, 'awaiting_payment')",
        share.id,
        share.owner_id,
        share.folder_id,
        share.folder_name,
        share.copy_type,
        share.generated_for
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn insert_item(
    conn: &mut PgConnection,
    share_id: Uuid,
    item: &ShareItemRow,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO share_items (share_id, item_id, position, name, media_type, original_sha256,
            captured_at, received_at, latitude, longitude, city, address, duration_seconds,
            receipt, receipt_signature, receipt_key_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        share_id,
        item.item_id,
        item.position,
        item.name,
        item.media_type,
        item.original_sha256,
        item.captured_at,
        item.received_at,
        item.latitude,
        item.longitude,
        item.city,
        item.address,
        item.duration_seconds,
        item.receipt,
        item.receipt_signature,
        item.receipt_key_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn get(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<ShareRow>> {
    sqlx::query_as!(
        ShareRow,
        "SELECT id, owner_id, folder_id, folder_name, copy_type, generated_for, state,
                payment_transaction_number, created_at, revoked_at
         FROM shares WHERE id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The owner's share, or `None` for anyone else's.
#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn get_owned(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<ShareRow>> {
    sqlx::query_as!(
        ShareRow,
        "SELECT id, owner_id, folder_id, folder_name, copy_type, generated_for, state,
                payment_transaction_number, created_at, revoked_at
         FROM shares WHERE id = $1 AND owner_id = $2 AND state IN ('active', 'revoked')",
        id,
        owner
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn list_for_folder(
    conn: &mut PgConnection,
    owner: Uuid,
    folder_id: Uuid,
) -> sqlx::Result<Vec<ShareRow>> {
    sqlx::query_as!(
        ShareRow,
        "SELECT id, owner_id, folder_id, folder_name, copy_type, generated_for, state,
                payment_transaction_number, created_at, revoked_at
         FROM shares WHERE owner_id = $1 AND folder_id = $2 AND state IN ('active', 'revoked')
         ORDER BY created_at DESC, id DESC",
        owner,
        folder_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn items(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<ShareItemRow>> {
    sqlx::query_as!(
        ShareItemRow,
        "SELECT item_id, position, name, media_type, original_sha256, captured_at, received_at,
                latitude, longitude, city, address, duration_seconds, receipt, receipt_signature,
                receipt_key_id
         FROM share_items WHERE share_id = $1 ORDER BY position",
        share_id
    )
    .fetch_all(conn)
    .await
}

/// What a share becomes once paid: active at once, or scheduled for a later release (a
/// futuregram).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paid {
    Active,
    Scheduled,
}

impl Paid {
    fn state(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Scheduled => "scheduled",
        }
    }
}

/// `true` for the one call that moved the share from awaiting payment to `then`.
#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn mark_paid(
    conn: &mut PgConnection,
    id: Uuid,
    payment_number: &str,
    then: Paid,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE shares SET state = $3, payment_transaction_number = $2
         WHERE id = $1 AND state = 'awaiting_payment'",
        id,
        payment_number,
        then.state()
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// `true` for the one call that released a scheduled share (it is then an ordinary share).
#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn release(conn: &mut PgConnection, id: Uuid, at: DateTime<Utc>) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE shares SET state = 'active', created_at = $2 WHERE id = $1 AND state = 'scheduled'",
        id,
        at
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that evidence is (about to be) asked to hold the share's items until its copies are
/// made; written before the hold, so a hold placed is always one the sweep lets go.
#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn mark_items_held(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("UPDATE shares SET items_held = true WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Shares whose items evidence still holds and need not: paid ones whose copies are all made (or
/// given up on), and ones left awaiting payment for an hour (a payment whose outcome was never
/// learned, not retried; a retry holds the items again before it pays). (share, owner)
#[tracing::instrument(skip_all)]
pub async fn holds_to_release(
    conn: &mut PgConnection,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, Uuid)>> {
    let rows = sqlx::query!(
        "SELECT s.id, s.owner_id FROM shares s
         WHERE s.items_held
           AND (s.state <> 'awaiting_payment' OR s.created_at < now() - interval '1 hour')
           AND NOT EXISTS (SELECT 1 FROM copies c WHERE c.share_id = s.id
                           AND c.state = 'preparing')
         ORDER BY s.created_at LIMIT $1",
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.id, r.owner_id)).collect())
}

#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn hold_released(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("UPDATE shares SET items_held = false WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Forgets a share whose payment was refused (nothing was bought, so nothing is kept).
#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn delete_unpaid(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM shares WHERE id = $1 AND state = 'awaiting_payment'",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %id))]
pub async fn revoke(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE shares SET state = 'revoked', revoked_at = now() WHERE id = $1 AND state = 'active'",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Per item of the owner's folder: how many recipients it went to, and how many can still open
/// its copy (their share is not revoked).
#[derive(Debug, Clone)]
pub struct ItemCounters {
    pub item_id: Uuid,
    pub shared: i64,
    pub available: i64,
}

#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn counters(
    conn: &mut PgConnection,
    owner: Uuid,
    folder_id: Uuid,
) -> sqlx::Result<Vec<ItemCounters>> {
    sqlx::query_as!(
        ItemCounters,
        r#"SELECT i.item_id,
                  count(d.id) AS "shared!",
                  count(d.id) FILTER (WHERE s.state = 'active') AS "available!"
           FROM shares s
           JOIN share_items i ON i.share_id = s.id
           JOIN deliveries d ON d.share_id = s.id AND d.channel <> 'link'
           WHERE s.owner_id = $1 AND s.folder_id = $2 AND s.state IN ('active', 'revoked')
           GROUP BY i.item_id"#,
        owner,
        folder_id
    )
    .fetch_all(conn)
    .await
}

/// Deletes everything of an owner's and answers the copies' object keys.
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn forget_owner(conn: &mut PgConnection, owner: Uuid) -> sqlx::Result<Vec<String>> {
    let keys = sqlx::query_scalar!(
        r#"SELECT c.object_key AS "key!" FROM copies c JOIN shares s ON s.id = c.share_id
           WHERE s.owner_id = $1 AND c.object_key IS NOT NULL"#,
        owner
    )
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM shares WHERE owner_id = $1", owner)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM custody_entries WHERE owner_id = $1", owner)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM custody_heads WHERE owner_id = $1", owner)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM custody_tips WHERE owner_id = $1", owner)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM packet_downloads WHERE owner_id = $1", owner)
        .execute(conn)
        .await?;
    Ok(keys)
}
