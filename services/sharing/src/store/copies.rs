//! `copies`: one watermarked copy of one item for one delivery, rendered by the worker.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct CopyRow {
    pub id: Uuid,
    pub delivery_id: Uuid,
    pub item_id: Uuid,
    pub state: String,
    pub object_key: Option<String>,
    pub content_type: Option<String>,
    pub sha256: Option<String>,
    pub size_bytes: Option<i64>,
    pub generated_at: Option<DateTime<Utc>>,
}

/// A copy a worker took, with what it needs to render it.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: Uuid,
    pub share_id: Uuid,
    pub delivery_id: Uuid,
    pub item_id: Uuid,
    pub attempts: i32,
    pub owner_id: Uuid,
    pub copy_type: String,
    pub generated_for: Option<String>,
    pub sent_to: String,
    pub transaction_number: String,
    pub media_type: String,
    pub created_at: DateTime<Utc>,
    pub original_name: String,
    pub original_sha256: String,
}

#[tracing::instrument(skip_all)]
pub async fn insert(
    conn: &mut PgConnection,
    id: Uuid,
    delivery_id: Uuid,
    share_id: Uuid,
    item_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO copies (id, delivery_id, share_id, item_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (delivery_id, item_id) DO NOTHING",
        id,
        delivery_id,
        share_id,
        item_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(delivery.id = %delivery_id))]
pub async fn for_delivery(
    conn: &mut PgConnection,
    delivery_id: Uuid,
) -> sqlx::Result<Vec<CopyRow>> {
    sqlx::query_as!(
        CopyRow,
        "SELECT c.id, c.delivery_id, c.item_id, c.state, c.object_key, c.content_type, c.sha256,
                c.size_bytes, c.generated_at
         FROM copies c JOIN share_items i ON i.share_id = c.share_id AND i.item_id = c.item_id
         WHERE c.delivery_id = $1 ORDER BY i.position",
        delivery_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn for_share(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<CopyRow>> {
    sqlx::query_as!(
        CopyRow,
        "SELECT id, delivery_id, item_id, state, object_key, content_type, sha256, size_bytes,
                generated_at
         FROM copies WHERE share_id = $1",
        share_id
    )
    .fetch_all(conn)
    .await
}

/// The delivery holding a copy whose bytes hash to `sha256`, if we issued one.
#[tracing::instrument(skip_all)]
pub async fn delivery_by_sha256(
    conn: &mut PgConnection,
    sha256: &str,
) -> sqlx::Result<Option<(Uuid, Uuid)>> {
    let row = sqlx::query!(
        "SELECT delivery_id, item_id FROM copies WHERE sha256 = $1 ORDER BY generated_at LIMIT 1",
        sha256
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| (r.delivery_id, r.item_id)))
}

/// Takes the next copy to render for `lease_secs`; one whose worker died is taken again once
/// its lease has passed.
#[tracing::instrument(skip_all)]
pub async fn claim(conn: &mut PgConnection, lease_secs: f64) -> sqlx::Result<Option<Job>> {
    sqlx::query_as!(
        Job,
        "WITH next AS (
             SELECT c.id FROM copies c JOIN shares s ON s.id = c.share_id
             WHERE c.state = 'preparing' AND s.state = 'active'
               AND (c.claimed_until IS NULL OR c.claimed_until < now())
             ORDER BY c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED
         ), taken AS (
             UPDATE copies c SET claimed_until = now() + make_interval(secs => $1),
                                 attempts = c.attempts + 1
             FROM next WHERE c.id = next.id
             RETURNING c.id, c.share_id, c.item_id, c.delivery_id, c.attempts
         )
         SELECT t.id, t.share_id, t.delivery_id, t.item_id, t.attempts, s.owner_id, s.copy_type, s.generated_for,
                d.sent_to, d.transaction_number, i.media_type, s.created_at,
                i.name AS original_name, i.original_sha256
         FROM taken t
         JOIN shares s ON s.id = t.share_id
         JOIN deliveries d ON d.id = t.delivery_id
         JOIN share_items i ON i.share_id = t.share_id AND i.item_id = t.item_id",
        lease_secs
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(copy.id = %id))]
pub async fn finish(
    conn: &mut PgConnection,
    id: Uuid,
    object_key: &str,
    content_type: &str,
    sha256: &str,
    size_bytes: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE copies SET state = 'ready', object_key = $2, content_type = $3, sha256 = $4,
                size_bytes = $5, generated_at = now(), claimed_until = NULL, error = NULL
         WHERE id = $1 AND state = 'preparing'",
        id,
        object_key,
        content_type,
        sha256,
        size_bytes
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A failed attempt: retried after `retry_secs`, or failed for good once `give_up`.
#[tracing::instrument(skip_all, fields(copy.id = %id))]
pub async fn fail(
    conn: &mut PgConnection,
    id: Uuid,
    error: &str,
    give_up: bool,
    retry_secs: f64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE copies SET error = $2,
                state = CASE WHEN $3 THEN 'failed' ELSE state END,
                claimed_until = now() + make_interval(secs => $4)
         WHERE id = $1 AND state = 'preparing'",
        id,
        error,
        give_up,
        retry_secs
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Forgets where a revoked share's copies were (their objects are deleted); their hashes stay,
/// so verification still recognises them.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn release_objects(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<String>> {
    let keys = sqlx::query_scalar!(
        r#"UPDATE copies c SET object_key = NULL
           FROM copies old WHERE old.id = c.id AND c.share_id = $1 AND c.object_key IS NOT NULL
           RETURNING old.object_key AS "key!""#,
        share_id
    )
    .fetch_all(conn)
    .await?;
    Ok(keys)
}
