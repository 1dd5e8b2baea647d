//! `custody_entries`: each item's append-only, hash-chained log.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq)]
pub struct EntryRow {
    pub item_id: Uuid,
    pub seq: i64,
    pub kind: String,
    pub at: DateTime<Utc>,
    pub detail: String,
    pub prev_hash: String,
    pub hash: String,
    /// The share the entry belongs to, when it is about one.
    pub share_id: Option<Uuid>,
    /// The recipient's delivery, when the entry is about one recipient.
    pub delivery_id: Option<Uuid>,
}

/// The item's last entry, locked so two appends cannot both follow it.
#[tracing::instrument(skip_all, fields(item.id = %item_id))]
pub async fn lock_last(
    conn: &mut PgConnection,
    item_id: Uuid,
) -> sqlx::Result<Option<(i64, String)>> {
    // The advisory lock serialises appends to one item, including its very first.
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))",
        item_id.to_string()
    )
    .execute(&mut *conn)
    .await?;
    let row = sqlx::query!(
        "SELECT seq, hash FROM custody_entries WHERE item_id = $1 ORDER BY seq DESC LIMIT 1",
        item_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| (r.seq, r.hash)))
}

#[tracing::instrument(skip_all, fields(item.id = %e.item_id))]
pub async fn insert(conn: &mut PgConnection, owner: Uuid, e: &EntryRow) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO custody_entries
             (item_id, seq, owner_id, kind, at, detail, prev_hash, hash, share_id, delivery_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        e.item_id,
        e.seq,
        owner,
        e.kind,
        e.at,
        e.detail,
        e.prev_hash,
        e.hash,
        e.share_id,
        e.delivery_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO custody_tips (item_id, owner_id, seq, hash) VALUES ($1, $2, $3, $4)
         ON CONFLICT (item_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash",
        e.item_id,
        owner,
        e.seq,
        e.hash
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn for_items(
    conn: &mut PgConnection,
    owner: Uuid,
    items: &[Uuid],
) -> sqlx::Result<Vec<EntryRow>> {
    sqlx::query_as!(
        EntryRow,
        "SELECT item_id, seq, kind, at, detail, prev_hash, hash, share_id, delivery_id
         FROM custody_entries
         WHERE owner_id = $1 AND item_id = ANY($2) ORDER BY item_id, seq",
        owner,
        items
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(item.id = %item_id))]
pub async fn has_entries(conn: &mut PgConnection, item_id: Uuid) -> sqlx::Result<bool> {
    let found = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM custody_entries WHERE item_id = $1) AS "found!""#,
        item_id
    )
    .fetch_one(conn)
    .await?;
    Ok(found)
}

/// The last entry of an item's log, where no head was signed for it yet.
#[derive(Debug, Clone, PartialEq)]
pub struct UnsignedHead {
    pub item_id: Uuid,
    pub seq: i64,
    pub owner_id: Uuid,
    pub hash: String,
}

/// Up to `limit` items whose log grew since its last signed head; only `items` when given.
#[tracing::instrument(skip_all)]
pub async fn unsigned_heads(
    conn: &mut PgConnection,
    items: Option<&[Uuid]>,
    limit: i64,
) -> sqlx::Result<Vec<UnsignedHead>> {
    sqlx::query_as!(
        UnsignedHead,
        // The tips' partial index holds only the logs that grew: the signer reads those alone.
        r#"SELECT item_id, seq, owner_id, hash FROM custody_tips
           WHERE (signed_seq IS NULL OR signed_seq < seq)
             AND ($1::uuid[] IS NULL OR item_id = ANY($1))
           ORDER BY item_id
           LIMIT $2"#,
        items,
        limit
    )
    .fetch_all(conn)
    .await
}

/// A signed head, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadRow {
    pub item_id: Uuid,
    pub seq: i64,
    pub hash: String,
    pub signed_at: DateTime<Utc>,
    pub payload: String,
    pub signature: String,
}

/// Records a signed head; another replica's head for the same entry stays (either is valid).
#[tracing::instrument(skip_all, fields(item.id = %h.item_id))]
pub async fn insert_head(conn: &mut PgConnection, owner: Uuid, h: &HeadRow) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO custody_heads (item_id, seq, owner_id, hash, signed_at, payload, signature)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (item_id, seq) DO NOTHING",
        h.item_id,
        h.seq,
        owner,
        h.hash,
        h.signed_at,
        h.payload,
        h.signature
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE custody_tips SET signed_seq = GREATEST(COALESCE(signed_seq, 0), $2)
         WHERE item_id = $1",
        h.item_id,
        h.seq
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Every signed head of the owner's `items`, oldest first per item.
#[tracing::instrument(skip_all)]
pub async fn heads_for(
    conn: &mut PgConnection,
    owner: Uuid,
    items: &[Uuid],
) -> sqlx::Result<Vec<HeadRow>> {
    sqlx::query_as!(
        HeadRow,
        "SELECT item_id, seq, hash, signed_at, payload, signature FROM custody_heads
         WHERE owner_id = $1 AND item_id = ANY($2) ORDER BY item_id, seq",
        owner,
        items
    )
    .fetch_all(conn)
    .await
}
