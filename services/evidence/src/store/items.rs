//! `items`: captures, their uploads, checks, reviews and files.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::Item,
    receipts::{Facts, Receipt},
};

/// Reads `Item`s: `$before`, every column of an item (with its folder's storage date), then
/// `$after`. A `SELECT` puts its `FROM items WHERE ...` after the columns, a write its
/// `RETURNING` before them. sqlx's macros take string literals joined by `+`, so the query stays
/// checked at compile time.
macro_rules! items {
    ($before:literal, $after:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Item,
            $before
                + r#" id, folder_id, owner_id, name, media_type, mime_type, object_key, file_size,
                 sha256, status, rejection_reason, upload_id, part_size, latitude, longitude, city,
                 address, country_code, duration_seconds, captured_at, received_at, verified_at,
                 created_at, thumbnail_key, client_id, section, previous_object_key,
                 previous_thumbnail_key, previous_file_size, purged_at,
                 (SELECT f.storage_expires_at FROM folders f WHERE f.id = items.folder_id)
                   AS "storage_expires_at!",
                 step_id, contributor_id, contributor_email, review_state, receipt,
                 receipt_signature, receipt_timestamp, receipt_timestamped_at "#
                + $after
            $(, $arg)*
        )
    };
}

/// The owner's item (`None` for another user's).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn get(conn: &mut PgConnection, owner_id: Uuid, id: Uuid) -> sqlx::Result<Option<Item>> {
    items!(
        "SELECT",
        "FROM items WHERE owner_id = $1 AND id = $2",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The owner's item, locked until the transaction ends.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn lock(conn: &mut PgConnection, owner_id: Uuid, id: Uuid) -> sqlx::Result<Option<Item>> {
    items!(
        "SELECT",
        "FROM items WHERE owner_id = $1 AND id = $2 FOR UPDATE",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The folder's item the device named with `client_id`.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn by_client_id(
    conn: &mut PgConnection,
    folder_id: Uuid,
    client_id: Uuid,
) -> sqlx::Result<Option<Item>> {
    items!(
        "SELECT",
        "FROM items WHERE folder_id = $1 AND client_id = $2",
        folder_id,
        client_id
    )
    .fetch_optional(conn)
    .await
}

/// The owner's items in a folder, oldest first.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn of_folder(
    conn: &mut PgConnection,
    owner_id: Uuid,
    folder_id: Uuid,
) -> sqlx::Result<Vec<Item>> {
    items!(
        "SELECT",
        "FROM items WHERE owner_id = $1 AND folder_id = $2 ORDER BY created_at",
        owner_id,
        folder_id
    )
    .fetch_all(conn)
    .await
}

/// A contributor's items in a folder (or one of its steps), oldest first.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn of_contributor(
    conn: &mut PgConnection,
    folder_id: Uuid,
    contributor_id: Uuid,
    step_id: Option<Uuid>,
) -> sqlx::Result<Vec<Item>> {
    items!(
        "SELECT",
        "FROM items WHERE folder_id = $1 AND contributor_id = $2
         AND ($3::uuid IS NULL OR step_id = $3) ORDER BY created_at",
        folder_id,
        contributor_id,
        step_id
    )
    .fetch_all(conn)
    .await
}

/// The owner of a contributor's item (`None` for anyone else's).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn contribution_owner(
    conn: &mut PgConnection,
    id: Uuid,
    contributor_id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT owner_id FROM items WHERE id = $1 AND contributor_id = $2",
        id,
        contributor_id
    )
    .fetch_optional(conn)
    .await
}

/// How many of `ids` are the owner's items, each locked against deletion (`FOR KEY SHARE`) until
/// the transaction ends: a delete that locked one first is waited for, and what it deleted is
/// not counted.
#[tracing::instrument(skip_all, fields(user.id = %owner_id))]
pub async fn count_owned(
    conn: &mut PgConnection,
    owner_id: Uuid,
    ids: &[Uuid],
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "count!" FROM (
             SELECT 1 FROM items
             WHERE owner_id = $1 AND id = ANY($2) AND purged_at IS NULL
             ORDER BY id FOR KEY SHARE
           ) AS kept"#,
        owner_id,
        ids
    )
    .fetch_one(conn)
    .await
}

/// Locks the folder's items against holds (`FOR UPDATE`) until the transaction ends, so that
/// whether one is held, once read, stays true until the folder is deleted. In id order, as a
/// hold locks them, so the two never wait for each other in a circle.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn lock_in_folder(conn: &mut PgConnection, folder_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "SELECT id FROM items WHERE folder_id = $1 ORDER BY id FOR UPDATE",
        folder_id
    )
    .fetch_all(conn)
    .await?;
    Ok(())
}

/// Locks the owner's item against holds (`FOR UPDATE`) until the transaction ends.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn lock_owned(conn: &mut PgConnection, owner_id: Uuid, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "SELECT id FROM items WHERE owner_id = $1 AND id = $2 FOR UPDATE",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(())
}

/// The owner of an item's folder, and the organization it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Holder {
    pub owner_id: Uuid,
    pub organization_id: Option<Uuid>,
}

#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn holder(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Holder>> {
    sqlx::query_as!(
        Holder,
        "SELECT f.owner_id, f.organization_id FROM items i JOIN folders f ON f.id = i.folder_id
         WHERE i.id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

/// A new item's row.
#[derive(Debug, Clone)]
pub struct NewItemRow<'a> {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub owner_id: Uuid,
    pub name: &'a str,
    pub media_type: &'a str,
    pub mime_type: &'a str,
    pub object_key: &'a str,
    pub file_size: i64,
    pub sha256: &'a str,
    pub upload_id: Option<&'a str>,
    pub part_size: Option<i64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
    pub captured_at: DateTime<Utc>,
    pub city: &'a str,
    pub address: &'a str,
    pub country_code: &'a str,
    pub client_id: Option<Uuid>,
    pub section: Option<&'a str>,
    pub step_id: Option<Uuid>,
    pub contributor_id: Option<Uuid>,
    pub contributor_email: Option<&'a str>,
    pub contribution_link_id: Option<Uuid>,
    pub review_state: Option<&'a str>,
}

/// Inserts the item; `None` when its client id is taken in the folder (a concurrent create won).
#[tracing::instrument(skip_all, fields(item.id = %row.id))]
pub async fn insert(conn: &mut PgConnection, row: &NewItemRow<'_>) -> sqlx::Result<Option<Item>> {
    items!(
        "INSERT INTO items (id, folder_id, owner_id, name, media_type, mime_type, object_key,
           file_size, sha256, upload_id, part_size, latitude, longitude, duration_seconds,
           captured_at, city, address, country_code, client_id, section, step_id, contributor_id,
           contributor_email, contribution_link_id, review_state)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
           $19, $20, $21, $22, $23, $24, $25)
         ON CONFLICT ON CONSTRAINT items_folder_client_id DO NOTHING RETURNING",
        "",
        row.id,
        row.folder_id,
        row.owner_id,
        row.name,
        row.media_type,
        row.mime_type,
        row.object_key,
        row.file_size,
        row.sha256,
        row.upload_id,
        row.part_size,
        row.latitude,
        row.longitude,
        row.duration_seconds,
        row.captured_at,
        row.city,
        row.address,
        row.country_code,
        row.client_id,
        row.section,
        row.step_id,
        row.contributor_id,
        row.contributor_email,
        row.contribution_link_id,
        row.review_state,
    )
    .fetch_optional(conn)
    .await
}

/// A rejected item's fresh upload of the same file; `None` when it is no longer rejected (a
/// concurrent retry restarted it).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn restart(
    conn: &mut PgConnection,
    id: Uuid,
    upload_id: Option<&str>,
    part_size: Option<i64>,
) -> sqlx::Result<Option<Item>> {
    items!(
        "UPDATE items SET status = 'awaiting_upload', rejection_reason = '', upload_id = $2,
           part_size = $3, received_at = NULL, upload_started_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'rejected' RETURNING",
        "",
        id,
        upload_id,
        part_size
    )
    .fetch_optional(conn)
    .await
}

/// A retake's new file, upload and capture, and the verified file it keeps until the new one is
/// verified.
#[derive(Debug, Clone)]
pub struct RetakeRow<'a> {
    pub id: Uuid,
    pub object_key: &'a str,
    pub mime_type: &'a str,
    pub file_size: i64,
    pub sha256: &'a str,
    pub upload_id: Option<&'a str>,
    pub part_size: Option<i64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
    pub captured_at: DateTime<Utc>,
    pub city: &'a str,
    pub address: &'a str,
    pub country_code: &'a str,
    pub previous_object_key: Option<&'a str>,
    pub previous_thumbnail_key: Option<&'a str>,
    pub previous_file_size: Option<i64>,
}

#[tracing::instrument(skip_all, fields(item.id = %row.id))]
pub async fn retake(conn: &mut PgConnection, row: &RetakeRow<'_>) -> sqlx::Result<Item> {
    items!(
        "UPDATE items SET object_key = $2, mime_type = $3, file_size = $4, sha256 = $5,
           status = 'awaiting_upload', rejection_reason = '', upload_id = $6, part_size = $7,
           latitude = $8, longitude = $9, duration_seconds = $10, captured_at = $11, city = $12,
           address = $13, country_code = $14, received_at = NULL, verified_at = NULL,
           receipt = NULL, receipt_signature = NULL, receipt_timestamp = NULL,
           receipt_timestamped_at = NULL, thumbnail_key = NULL, previous_object_key = $15, previous_thumbnail_key = $16,
           previous_file_size = $17, upload_started_at = now(), updated_at = now()
         WHERE id = $1 RETURNING",
        "",
        row.id,
        row.object_key,
        row.mime_type,
        row.file_size,
        row.sha256,
        row.upload_id,
        row.part_size,
        row.latitude,
        row.longitude,
        row.duration_seconds,
        row.captured_at,
        row.city,
        row.address,
        row.country_code,
        row.previous_object_key,
        row.previous_thumbnail_key,
        row.previous_file_size,
    )
    .fetch_one(conn)
    .await
}

/// Renames the owner's item (`None` when there is none).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn rename(
    conn: &mut PgConnection,
    owner_id: Uuid,
    id: Uuid,
    name: &str,
) -> sqlx::Result<Option<Item>> {
    items!(
        "UPDATE items SET name = $3, updated_at = now() WHERE owner_id = $1 AND id = $2 RETURNING",
        "",
        owner_id,
        id,
        name
    )
    .fetch_optional(conn)
    .await
}

/// Deletes the owner's item and answers what it was (`None` when there is none).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn delete(
    conn: &mut PgConnection,
    owner_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Item>> {
    items!(
        "DELETE FROM items WHERE owner_id = $1 AND id = $2 RETURNING",
        "",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Records the receipt of the bytes of the upload to `object_key`; `None` when the item no longer
/// waits for them (a concurrent finish recorded them, or a retake started another upload).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn mark_uploaded(
    conn: &mut PgConnection,
    id: Uuid,
    object_key: &str,
) -> sqlx::Result<Option<Item>> {
    items!(
        "UPDATE items SET status = 'uploaded', received_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'awaiting_upload' AND object_key = $2 RETURNING",
        "",
        id,
        object_key
    )
    .fetch_optional(conn)
    .await
}

/// Rejects an item still waiting for its upload, with the reason.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn reject_unfinished(
    conn: &mut PgConnection,
    id: Uuid,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET status = 'rejected', rejection_reason = $2, updated_at = now()
         WHERE id = $1 AND status = 'awaiting_upload'",
        id,
        reason
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn set_name(conn: &mut PgConnection, id: Uuid, name: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET name = $2, updated_at = now() WHERE id = $1",
        id,
        name
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Where an item was captured: its coordinates and their place in words.
#[derive(Debug, Clone)]
pub struct PlaceRow<'a> {
    pub latitude: f64,
    pub longitude: f64,
    pub city: &'a str,
    pub address: &'a str,
    pub country_code: &'a str,
}

#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn set_place(
    conn: &mut PgConnection,
    id: Uuid,
    place: &PlaceRow<'_>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET latitude = $2, longitude = $3, city = $4, address = $5,
           country_code = $6, updated_at = now()
         WHERE id = $1",
        id,
        place.latitude,
        place.longitude,
        place.city,
        place.address,
        place.country_code
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What the check of an upload needs of its item.
#[derive(Debug, Clone)]
pub struct Uploaded {
    pub status: String,
    pub object_key: String,
    pub previous_object_key: Option<String>,
    pub previous_thumbnail_key: Option<String>,
    pub previous_file_size: Option<i64>,
    pub media_type: String,
    pub contributor_id: Option<Uuid>,
    pub contributor_email: Option<String>,
}

/// The item as its upload's check sees it.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn uploaded(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Uploaded>> {
    sqlx::query_as!(
        Uploaded,
        "SELECT status, object_key, previous_object_key, previous_thumbnail_key,
           previous_file_size, media_type, contributor_id, contributor_email
         FROM items WHERE id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

/// `uploaded`, locking the item until the transaction ends.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn lock_uploaded(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Uploaded>> {
    sqlx::query_as!(
        Uploaded,
        "SELECT status, object_key, previous_object_key, previous_thumbnail_key,
           previous_file_size, media_type, contributor_id, contributor_email
         FROM items WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The upload checked out: the item is verified and no longer keeps a previous file.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn mark_verified(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET status = 'verified', verified_at = now(), previous_object_key = NULL,
           previous_thumbnail_key = NULL, previous_file_size = NULL, updated_at = now()
         WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn mark_rejected(conn: &mut PgConnection, id: Uuid, reason: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET status = 'rejected', rejection_reason = $2, updated_at = now()
         WHERE id = $1",
        id,
        reason
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the thumbnail of the item's current file; `false` when the item is gone or holds
/// another file now.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn set_thumbnail(
    conn: &mut PgConnection,
    id: Uuid,
    thumbnail_key: &str,
    object_key: &str,
) -> sqlx::Result<bool> {
    let recorded = sqlx::query!(
        "UPDATE items SET thumbnail_key = $2, updated_at = now() WHERE id = $1 AND object_key = $3",
        id,
        thumbnail_key,
        object_key
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(recorded > 0)
}

/// An upload started and never finished.
#[derive(Debug, Clone)]
pub struct Stale {
    pub id: Uuid,
    pub object_key: String,
    pub upload_id: Option<String>,
}

/// Up to 500 uploads started more than `hours` ago and not finished.
#[tracing::instrument(skip_all)]
pub async fn stale_uploads(conn: &mut PgConnection, hours: i32) -> sqlx::Result<Vec<Stale>> {
    sqlx::query_as!(
        Stale,
        "SELECT id, object_key, upload_id FROM items
         WHERE status = 'awaiting_upload' AND upload_started_at < now() - make_interval(hours => $1::int)
         LIMIT 500",
        hours
    )
    .fetch_all(conn)
    .await
}

/// Marks a folder's items purged: their files are gone (an unfinished upload is rejected with
/// `reason`), the rows stay.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn mark_purged(
    conn: &mut PgConnection,
    folder_id: Uuid,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET purged_at = now(), thumbnail_key = NULL, previous_object_key = NULL,
           previous_thumbnail_key = NULL, previous_file_size = NULL,
           status = CASE WHEN status = 'awaiting_upload' THEN 'rejected' ELSE status END,
           rejection_reason = CASE WHEN status = 'awaiting_upload' THEN $2 ELSE rejection_reason END,
           updated_at = now()
         WHERE folder_id = $1 AND purged_at IS NULL",
        folder_id,
        reason
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A contribution a participant declined.
#[derive(Debug, Clone, Copy)]
pub struct Declined {
    pub id: Uuid,
    pub owner_id: Uuid,
}

/// Up to 500 contributions declined more than `seconds` ago.
#[tracing::instrument(skip_all)]
pub async fn declined_before(conn: &mut PgConnection, seconds: f64) -> sqlx::Result<Vec<Declined>> {
    sqlx::query_as!(
        Declined,
        "SELECT id, owner_id FROM items WHERE review_state = 'declined'
         AND reviewed_at <= now() - make_interval(secs => $1::double precision) LIMIT 500",
        seconds
    )
    .fetch_all(conn)
    .await
}

/// Records a participant's decision on a pending contribution; `false` when it is not pending
/// any more.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn review(
    conn: &mut PgConnection,
    id: Uuid,
    decision: &str,
    reviewer: Uuid,
) -> sqlx::Result<bool> {
    let changed = sqlx::query!(
        "UPDATE items SET review_state = $2, reviewed_by = $3, reviewed_at = now(),
           updated_at = now()
         WHERE id = $1 AND review_state = 'pending'",
        id,
        decision,
        reviewer
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(changed > 0)
}

/// A folder's contributions that arrived and wait for a decision.
#[derive(Debug, Clone, Copy)]
pub struct Pending {
    pub folder_id: Uuid,
    pub count: i64,
}

#[tracing::instrument(skip_all)]
pub async fn pending(conn: &mut PgConnection, folder_ids: &[Uuid]) -> sqlx::Result<Vec<Pending>> {
    sqlx::query_as!(
        Pending,
        r#"SELECT folder_id, COUNT(*) AS "count!" FROM items
           WHERE folder_id = ANY($1) AND review_state = 'pending'
             AND status IN ('uploaded', 'verified')
           GROUP BY folder_id"#,
        folder_ids
    )
    .fetch_all(conn)
    .await
}

/// What a verified item's receipt states, read in the verifying transaction.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn receipt_facts(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Facts>> {
    let row = sqlx::query!(
        r#"SELECT id, owner_id, sha256, file_size, mime_type, captured_at,
                  COALESCE(received_at, verified_at, now()) AS "received_at!",
                  latitude, longitude
           FROM items WHERE id = $1 AND status = 'verified'"#,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| Facts {
        item_id: r.id,
        owner_id: r.owner_id,
        sha256: r.sha256,
        size: r.file_size,
        media_type: r.mime_type,
        captured_at: r.captured_at,
        received_at: r.received_at,
        place: r.latitude.zip(r.longitude),
    }))
}

/// Stores a verified item's signed receipt.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn set_receipt(conn: &mut PgConnection, id: Uuid, receipt: &Receipt) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET receipt = $2, receipt_signature = $3 WHERE id = $1",
        id,
        receipt.payload,
        receipt.signature
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Receipts waiting for their timestamp (an authority is configured): id and signature.
#[tracing::instrument(skip_all)]
pub async fn unstamped_receipts(
    conn: &mut PgConnection,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, String)>> {
    let rows = sqlx::query!(
        r#"SELECT id, receipt_signature AS "signature!" FROM items
           WHERE receipt_signature IS NOT NULL AND receipt_timestamp IS NULL
           ORDER BY id LIMIT $1"#,
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.id, r.signature)).collect())
}

/// Stores a receipt's timestamp, if the receipt is still the one stamped (a retake meanwhile
/// made another).
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn set_receipt_timestamp(
    conn: &mut PgConnection,
    id: Uuid,
    signature: &str,
    token: &[u8],
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE items SET receipt_timestamp = $3, receipt_timestamped_at = $4
         WHERE id = $1 AND receipt_signature = $2",
        id,
        signature,
        token,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}
