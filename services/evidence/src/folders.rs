//! Folders: created with the default storage period, listed with their usage, renamed, deleted.

use chrono::{DateTime, Duration, Utc};
use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::FolderCreated;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{config::StoragePolicy, domain::Name, error::EvidenceError};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Folder {
    pub id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub storage_expires_at: DateTime<Utc>,
    pub file_count: i64,
    pub used_bytes: i64,
}

impl Folder {
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        self.storage_expires_at <= now
    }

    pub fn expire_soon(&self, now: DateTime<Utc>, policy: &StoragePolicy) -> bool {
        !self.expired(now)
            && self.storage_expires_at <= now + Duration::days(policy.expire_soon_days)
    }
}

const SELECT: &str = "SELECT f.id, f.name, f.created_at, f.storage_expires_at, \
     COUNT(i.id) FILTER (WHERE i.status = 'verified') AS file_count, \
     COALESCE(SUM(i.file_size) FILTER (WHERE i.status = 'verified'), 0)::bigint AS used_bytes \
     FROM folders f LEFT JOIN items i ON i.folder_id = f.id";

#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    conn: &mut PgConnection,
    policy: &StoragePolicy,
    owner: Uuid,
    name: &Name,
) -> Result<Folder, EvidenceError> {
    let id = Uuid::now_v7();
    let expires = Utc::now() + Duration::days(policy.default_period_days);
    sqlx::query(
        "INSERT INTO folders (id, owner_id, name, storage_expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(owner)
    .bind(name.as_str())
    .bind(expires)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO storage_usage (user_id, folder_count) VALUES ($1, 1) \
         ON CONFLICT (user_id) DO UPDATE SET folder_count = storage_usage.folder_count + 1, updated_at = now()",
    )
    .bind(owner)
    .execute(&mut *conn)
    .await?;
    outbox::enqueue(
        conn,
        &FolderCreated {
            folder_id: id.to_string(),
            owner_id: owner.to_string(),
            storage_expires_at: Some(timestamp(expires)),
        },
    )
    .await?;
    get(conn, owner, id).await
}

pub async fn list(conn: &mut PgConnection, owner: Uuid) -> Result<Vec<Folder>, EvidenceError> {
    let sql = format!("{SELECT} WHERE f.owner_id = $1 GROUP BY f.id ORDER BY f.created_at DESC");
    Ok(sqlx::query_as(&sql).bind(owner).fetch_all(conn).await?)
}

/// The owner's folder; another user's is `NotFound`.
pub async fn get(conn: &mut PgConnection, owner: Uuid, id: Uuid) -> Result<Folder, EvidenceError> {
    let sql = format!("{SELECT} WHERE f.owner_id = $1 AND f.id = $2 GROUP BY f.id");
    sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or(EvidenceError::NotFound)
}

pub async fn rename(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
    name: &Name,
) -> Result<Folder, EvidenceError> {
    let updated = sqlx::query(
        "UPDATE folders SET name = $3, updated_at = now() WHERE owner_id = $1 AND id = $2",
    )
    .bind(owner)
    .bind(id)
    .bind(name.as_str())
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(EvidenceError::NotFound);
    }
    get(conn, owner, id).await
}

/// Deletes the folder and its items; returns the object keys and unfinished uploads to remove
/// from S3 once the transaction has committed.
pub async fn delete(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Vec<(String, Option<String>)>, EvidenceError> {
    let folder = get(conn, owner, id).await?;
    let objects: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT object_key, CASE WHEN status = 'awaiting_upload' THEN upload_id END FROM items WHERE folder_id = $1")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
    sqlx::query("DELETE FROM folders WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE storage_usage SET folder_count = GREATEST(folder_count - 1, 0), \
         file_count = GREATEST(file_count - $2, 0), used_bytes = GREATEST(used_bytes - $3, 0), updated_at = now() \
         WHERE user_id = $1",
    )
    .bind(owner)
    .bind(folder.file_count)
    .bind(folder.used_bytes)
    .execute(&mut *conn)
    .await?;
    Ok(objects)
}
