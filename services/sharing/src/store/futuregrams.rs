//! `futuregrams`, `futuregram_executors`, `futuregram_views` and `futuregram_outbox`.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct FuturegramRow {
    pub share_id: Uuid,
    pub owner_id: Uuid,
    pub situation_id: Uuid,
    pub release_at: Option<DateTime<Utc>>,
    pub state: String,
    pub due_at: Option<DateTime<Utc>>,
    pub reminded_at: Option<DateTime<Utc>>,
    pub recipients_paid: i32,
    pub released_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct ExecutorRow {
    pub id: Uuid,
    pub share_id: Uuid,
    pub email: String,
    pub phone: Option<String>,
    pub state: String,
    pub release_requested_at: Option<DateTime<Utc>>,
    pub vetoed_at: Option<DateTime<Utc>>,
    pub responded_at: Option<DateTime<Utc>>,
}

pub struct NewFuturegram {
    pub share_id: Uuid,
    pub owner_id: Uuid,
    pub situation_id: Uuid,
    pub release_at: Option<DateTime<Utc>>,
    pub recipients_paid: i32,
}

#[tracing::instrument(skip_all, fields(share.id = %f.share_id))]
pub async fn insert(conn: &mut PgConnection, f: &NewFuturegram) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO futuregrams (share_id, owner_id, situation_id, release_at, recipients_paid)
         VALUES ($1, $2, $3, $4, $5)",
        f.share_id,
        f.owner_id,
        f.situation_id,
        f.release_at,
        f.recipients_paid
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn insert_executor(
    conn: &mut PgConnection,
    share_id: Uuid,
    email: &str,
    phone: Option<&str>,
    token_hash: &[u8],
) -> sqlx::Result<Uuid> {
    let id = Uuid::now_v7();
    sqlx::query!(
        "INSERT INTO futuregram_executors (id, share_id, email, phone, token_hash)
         VALUES ($1, $2, $3, $4, $5)",
        id,
        share_id,
        email,
        phone,
        token_hash
    )
    .execute(conn)
    .await?;
    Ok(id)
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn set_executor_phone(
    conn: &mut PgConnection,
    id: Uuid,
    share_id: Uuid,
    phone: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET phone = $3 WHERE id = $1 AND share_id = $2",
        id,
        share_id,
        phone
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(executor.id = %id))]
pub async fn rotate_executor_token(
    conn: &mut PgConnection,
    id: Uuid,
    token_hash: &[u8],
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET token_hash = $2 WHERE id = $1",
        id,
        token_hash
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn remove_executor(
    conn: &mut PgConnection,
    share_id: Uuid,
    id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM futuregram_executors WHERE id = $1 AND share_id = $2",
        id,
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The owner's futuregrams of a capture situation, oldest first.
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn for_situation(
    conn: &mut PgConnection,
    owner: Uuid,
    situation: Uuid,
) -> sqlx::Result<Vec<FuturegramRow>> {
    sqlx::query_as!(
        FuturegramRow,
        "SELECT f.share_id, f.owner_id, f.situation_id, f.release_at, f.state, f.due_at,
                f.reminded_at, f.recipients_paid, f.released_at, f.created_at
         FROM futuregrams f JOIN shares s ON s.id = f.share_id
         WHERE f.owner_id = $1 AND f.situation_id = $2 AND s.state <> 'awaiting_payment'
         ORDER BY f.created_at, f.share_id",
        owner,
        situation
    )
    .fetch_all(conn)
    .await
}

/// The owner's futuregram, locked for a change; another user's (or one not yet paid) is `None`.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn lock_owned(
    conn: &mut PgConnection,
    owner: Uuid,
    share_id: Uuid,
) -> sqlx::Result<Option<FuturegramRow>> {
    sqlx::query_as!(
        FuturegramRow,
        "SELECT f.share_id, f.owner_id, f.situation_id, f.release_at, f.state, f.due_at,
                f.reminded_at, f.recipients_paid, f.released_at, f.created_at
         FROM futuregrams f JOIN shares s ON s.id = f.share_id
         WHERE f.share_id = $1 AND f.owner_id = $2 AND s.state <> 'awaiting_payment'
         FOR UPDATE OF f",
        share_id,
        owner
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn lock(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Option<FuturegramRow>> {
    sqlx::query_as!(
        FuturegramRow,
        "SELECT share_id, owner_id, situation_id, release_at, state, due_at, reminded_at,
                recipients_paid, released_at, created_at
         FROM futuregrams WHERE share_id = $1 FOR UPDATE",
        share_id
    )
    .fetch_optional(conn)
    .await
}

/// Futuregrams due by `now`, locked; others' locked rows are skipped (another replica has them).
/// An owner whose account is deleted is paused: nothing of theirs is released until recovery.
#[tracing::instrument(skip_all)]
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<FuturegramRow>> {
    sqlx::query_as!(
        FuturegramRow,
        "SELECT f.share_id, f.owner_id, f.situation_id, f.release_at, f.state, f.due_at,
                f.reminded_at, f.recipients_paid, f.released_at, f.created_at
         FROM futuregrams f
         WHERE f.state IN ('pending', 'waiting') AND f.due_at <= $1
           AND NOT EXISTS (SELECT 1 FROM account_directory a
                           WHERE a.user_id = f.owner_id AND a.deleted_at IS NOT NULL)
         ORDER BY f.due_at LIMIT $2 FOR UPDATE OF f SKIP LOCKED",
        now,
        limit
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn set_schedule(
    conn: &mut PgConnection,
    share_id: Uuid,
    state: &str,
    due_at: Option<DateTime<Utc>>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregrams SET state = $2, due_at = $3 WHERE share_id = $1",
        share_id,
        state,
        due_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn mark_reminded(
    conn: &mut PgConnection,
    share_id: Uuid,
    at: DateTime<Utc>,
    due_at: Option<DateTime<Utc>>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregrams SET reminded_at = $2, due_at = $3 WHERE share_id = $1",
        share_id,
        at,
        due_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn mark_released(
    conn: &mut PgConnection,
    share_id: Uuid,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregrams SET state = 'released', released_at = $2, due_at = NULL
         WHERE share_id = $1",
        share_id,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn executors(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<ExecutorRow>> {
    sqlx::query_as!(
        ExecutorRow,
        "SELECT id, share_id, email, phone, state, release_requested_at, vetoed_at, responded_at
         FROM futuregram_executors WHERE share_id = $1 ORDER BY created_at, id",
        share_id
    )
    .fetch_all(conn)
    .await
}

/// The executor a link's secret names, locked with their futuregram's row taken first by the
/// caller when it matters.
#[tracing::instrument(skip_all)]
pub async fn executor_by_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> sqlx::Result<Option<ExecutorRow>> {
    sqlx::query_as!(
        ExecutorRow,
        "SELECT id, share_id, email, phone, state, release_requested_at, vetoed_at, responded_at
         FROM futuregram_executors WHERE token_hash = $1",
        token_hash
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(executor.id = %id))]
pub async fn respond(
    conn: &mut PgConnection,
    id: Uuid,
    state: &str,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET state = $2, responded_at = $3,
                release_requested_at = CASE WHEN $2 = 'accepted' THEN release_requested_at END
         WHERE id = $1",
        id,
        state,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(executor.id = %id))]
pub async fn request_release(
    conn: &mut PgConnection,
    id: Uuid,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET release_requested_at = COALESCE(release_requested_at, $2)
         WHERE id = $1",
        id,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(executor.id = %id))]
pub async fn veto(conn: &mut PgConnection, id: Uuid, at: DateTime<Utc>) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET vetoed_at = $2 WHERE id = $1",
        id,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Forgets every executor's request (the owner cancelled the release).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn clear_requests(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_executors SET release_requested_at = NULL WHERE share_id = $1",
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(delivery.id = %delivery_id))]
pub async fn insert_view(
    conn: &mut PgConnection,
    token_hash: &[u8],
    delivery_id: Uuid,
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO futuregram_views (token_hash, delivery_id, expires_at) VALUES ($1, $2, $3)",
        token_hash,
        delivery_id,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The delivery a view link opens, and until when.
#[tracing::instrument(skip_all)]
pub async fn view_by_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> sqlx::Result<Option<(Uuid, DateTime<Utc>)>> {
    let row = sqlx::query!(
        "SELECT delivery_id, expires_at FROM futuregram_views WHERE token_hash = $1",
        token_hash
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| (r.delivery_id, r.expires_at)))
}

pub struct Outgoing<'a> {
    pub share_id: Uuid,
    pub channel: &'a str,
    pub address: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
}

#[tracing::instrument(skip_all, fields(share.id = %m.share_id))]
pub async fn push(conn: &mut PgConnection, m: &Outgoing<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO futuregram_outbox (id, share_id, channel, address, subject, body)
         VALUES ($1, $2, $3, $4, $5, $6)",
        Uuid::now_v7(),
        m.share_id,
        m.channel,
        m.address,
        m.subject,
        m.body
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct OutboxRow {
    pub id: Uuid,
    pub channel: String,
    pub address: String,
    pub subject: String,
    pub body: String,
}

/// Messages to send, each leased to this caller until `until` (a replica that dies mid-send
/// leaves them to the next lease).
#[tracing::instrument(skip_all)]
pub async fn claim_outbox(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as!(
        OutboxRow,
        "UPDATE futuregram_outbox SET claimed_until = $2
         WHERE id IN (SELECT id FROM futuregram_outbox
                      WHERE claimed_until IS NULL OR claimed_until < $1
                      ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, channel, address, subject, body",
        now,
        until,
        limit
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(message.id = %id))]
pub async fn sent(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM futuregram_outbox WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(message.id = %id))]
pub async fn unclaim(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregram_outbox SET claimed_until = NULL WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Released futuregrams whose copies are all made (or given up on): evidence may let go of
/// their items.
#[tracing::instrument(skip_all)]
pub async fn holds_to_release(
    conn: &mut PgConnection,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, Uuid)>> {
    let rows = sqlx::query!(
        "SELECT f.share_id, f.owner_id FROM futuregrams f
         WHERE f.state = 'released' AND NOT f.hold_released
           AND NOT EXISTS (SELECT 1 FROM copies c WHERE c.share_id = f.share_id
                           AND c.state = 'preparing')
         ORDER BY f.released_at LIMIT $1",
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|r| (r.share_id, r.owner_id)).collect())
}

#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn hold_released(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE futuregrams SET hold_released = true WHERE share_id = $1",
        share_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
