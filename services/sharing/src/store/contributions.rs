//! `contribution_links`, `contributor_codes`, `contributors` and `contribution_submissions`:
//! the way anonymous contributors reach an organization folder.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct LinkRow {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub organization_name: String,
    pub channel: String,
    pub address: String,
    pub sent_to: String,
    pub expires_at: DateTime<Utc>,
    pub max_submissions: i32,
    pub submissions: i32,
    pub revoked_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

pub struct NewLink<'a> {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub organization_name: &'a str,
    pub created_by: Uuid,
    pub token_hash: &'a [u8],
    pub channel: &'a str,
    pub address: &'a str,
    pub sent_to: &'a str,
    pub expires_at: DateTime<Utc>,
    pub max_submissions: i32,
}

#[tracing::instrument(skip_all, fields(link.id = %link.id))]
pub async fn insert_link(conn: &mut PgConnection, link: &NewLink<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO contribution_links (id, folder_id, organization_name, created_by, token_hash, channel,
           address, sent_to, expires_at, max_submissions)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        link.id,
        link.folder_id,
        link.organization_name,
        link.created_by,
        link.token_hash,
        link.channel,
        link.address,
        link.sent_to,
        link.expires_at,
        link.max_submissions
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(link.id = %id))]
pub async fn link(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<LinkRow>> {
    sqlx::query_as!(
        LinkRow,
        "SELECT id, folder_id, organization_name, channel, address, sent_to, expires_at, max_submissions,
           submissions, revoked_at, created_at
         FROM contribution_links WHERE id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn link_by_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> sqlx::Result<Option<LinkRow>> {
    sqlx::query_as!(
        LinkRow,
        "SELECT id, folder_id, organization_name, channel, address, sent_to, expires_at, max_submissions,
           submissions, revoked_at, created_at
         FROM contribution_links WHERE token_hash = $1",
        token_hash
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn links_of(conn: &mut PgConnection, folder_id: Uuid) -> sqlx::Result<Vec<LinkRow>> {
    sqlx::query_as!(
        LinkRow,
        "SELECT id, folder_id, organization_name, channel, address, sent_to, expires_at, max_submissions,
           submissions, revoked_at, created_at
         FROM contribution_links WHERE folder_id = $1 ORDER BY created_at DESC",
        folder_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(link.id = %id))]
pub async fn revoke(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE contribution_links SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Reserves one of the link's submissions for the device's file, in the caller's transaction,
/// which holds the link's row from here to its end; `Some(false)` when it was reserved before (a
/// retry, also one running meanwhile: the insert waits for it), `None` when the link has none
/// left, and the caller rolls back what this wrote.
#[tracing::instrument(skip_all, fields(link.id = %link_id))]
pub async fn reserve(
    conn: &mut PgConnection,
    link_id: Uuid,
    client_id: Uuid,
) -> sqlx::Result<Option<bool>> {
    let inserted = sqlx::query!(
        "INSERT INTO contribution_submissions (link_id, client_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING",
        link_id,
        client_id
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Ok(Some(false));
    }
    let room = sqlx::query!(
        "UPDATE contribution_links SET submissions = submissions + 1
         WHERE id = $1 AND submissions < max_submissions",
        link_id
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok((room > 0).then_some(true))
}

#[derive(Debug, Clone)]
pub struct CodeRow {
    pub id: Uuid,
    pub link_id: Uuid,
    pub email: String,
    pub code_hash: Vec<u8>,
    pub tries: i32,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
}

#[tracing::instrument(skip_all, fields(link.id = %link_id))]
pub async fn insert_code(
    conn: &mut PgConnection,
    id: Uuid,
    link_id: Uuid,
    email: &str,
    code_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO contributor_codes (id, link_id, email, code_hash, expires_at) VALUES ($1, $2, $3, $4, $5)",
        id,
        link_id,
        email,
        code_hash,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn lock_code(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CodeRow>> {
    sqlx::query_as!(
        CodeRow,
        "SELECT id, link_id, email, code_hash, tries, expires_at, used_at
         FROM contributor_codes WHERE id = $1 FOR UPDATE",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn count_try(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<i32> {
    sqlx::query_scalar!(
        "UPDATE contributor_codes SET tries = tries + 1 WHERE id = $1 RETURNING tries",
        id
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all, fields(code.id = %id))]
pub async fn use_code(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE contributor_codes SET used_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct ContributorRow {
    pub id: Uuid,
    pub link_id: Uuid,
    pub folder_id: Uuid,
    pub email: String,
    pub expires_at: DateTime<Utc>,
}

#[tracing::instrument(skip_all, fields(contributor.id = %id))]
pub async fn insert_contributor(
    conn: &mut PgConnection,
    id: Uuid,
    link_id: Uuid,
    folder_id: Uuid,
    email: &str,
    token_hash: &[u8],
    expires_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO contributors (id, link_id, folder_id, email, token_hash, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
        id,
        link_id,
        folder_id,
        email,
        token_hash,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn contributor_by_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> sqlx::Result<Option<ContributorRow>> {
    sqlx::query_as!(
        ContributorRow,
        "SELECT id, link_id, folder_id, email, expires_at FROM contributors WHERE token_hash = $1",
        token_hash
    )
    .fetch_optional(conn)
    .await
}
