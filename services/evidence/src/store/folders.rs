//! `folders` (with their rental and what their items count for): created, read, renamed,
//! extended, expired, purged and deleted.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Folder;

/// Reads `Folder`s: every query shares the select list (with its rental and its files' usage);
/// `$tail` is the rest (`WHERE ... GROUP BY f.id, r.folder_id ...`). sqlx's macros take string
/// literals joined by `+`, so the query stays checked at compile time.
macro_rules! folders {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Folder,
            r#"SELECT f.id, f.owner_id, f.name, f.created_at, f.storage_expires_at, f.client_id,
                 f.organization_id, f.template_id,
                 r.kind AS "rental_kind?", r.vehicle_type AS "vehicle_type?",
                 r.moment AS "moment?", r.pickup_folder_id AS "pickup_folder_id?",
                 COUNT(i.id) FILTER (WHERE i.status = 'verified' OR i.previous_object_key IS NOT NULL)
                   AS "file_count!",
                 COALESCE(SUM(CASE WHEN i.purged_at IS NOT NULL THEN 0
                                   WHEN i.status = 'verified' THEN i.file_size
                                   WHEN i.previous_object_key IS NOT NULL THEN i.previous_file_size
                              END), 0)::bigint AS "used_bytes!"
               FROM folders f LEFT JOIN rentals r ON r.folder_id = f.id
               LEFT JOIN items i ON i.folder_id = f.id "# + $tail
            $(, $arg)*
        )
    };
}

/// The owner's folder (`None` for another user's).
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn get(
    conn: &mut PgConnection,
    owner_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Folder>> {
    folders!(
        "WHERE f.owner_id = $1 AND f.id = $2 GROUP BY f.id, r.folder_id",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The owner's folder the device named with `client_id`.
#[tracing::instrument(skip_all, fields(user.id = %owner_id))]
pub async fn by_client_id(
    conn: &mut PgConnection,
    owner_id: Uuid,
    client_id: Uuid,
) -> sqlx::Result<Option<Folder>> {
    folders!(
        "WHERE f.owner_id = $1 AND f.client_id = $2 GROUP BY f.id, r.folder_id",
        owner_id,
        client_id
    )
    .fetch_optional(conn)
    .await
}

/// The owner's own folders (not an organization's), newest first; with `pickup`, only the
/// returns of that pick-up folder.
#[tracing::instrument(skip_all, fields(user.id = %owner_id))]
pub async fn own(
    conn: &mut PgConnection,
    owner_id: Uuid,
    pickup: Option<Uuid>,
) -> sqlx::Result<Vec<Folder>> {
    folders!(
        "WHERE f.owner_id = $1 AND f.organization_id IS NULL
           AND ($2::uuid IS NULL OR r.pickup_folder_id = $2)
         GROUP BY f.id, r.folder_id ORDER BY f.created_at DESC",
        owner_id,
        pickup
    )
    .fetch_all(conn)
    .await
}

/// An organization's folders (owned by its owner), newest first.
#[tracing::instrument(skip_all, fields(organization.id = %organization_id))]
pub async fn of_organization(
    conn: &mut PgConnection,
    owner_id: Uuid,
    organization_id: Uuid,
) -> sqlx::Result<Vec<Folder>> {
    folders!(
        "WHERE f.owner_id = $1 AND f.organization_id = $2
         GROUP BY f.id, r.folder_id ORDER BY f.created_at DESC",
        owner_id,
        organization_id
    )
    .fetch_all(conn)
    .await
}

/// A new folder's row.
#[derive(Debug, Clone)]
pub struct NewFolderRow<'a> {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub name: &'a str,
    pub storage_expires_at: DateTime<Utc>,
    pub client_id: Option<Uuid>,
    pub organization_id: Option<Uuid>,
    pub template_id: Option<Uuid>,
}

/// Inserts the folder; `false` when the owner's client id is taken (a concurrent create won).
#[tracing::instrument(skip_all, fields(folder.id = %row.id))]
pub async fn insert(conn: &mut PgConnection, row: &NewFolderRow<'_>) -> sqlx::Result<bool> {
    let inserted = sqlx::query!(
        "INSERT INTO folders
           (id, owner_id, name, storage_expires_at, client_id, organization_id, template_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ON CONSTRAINT folders_owner_client_id DO NOTHING",
        row.id,
        row.owner_id,
        row.name,
        row.storage_expires_at,
        row.client_id,
        row.organization_id,
        row.template_id
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

/// A folder's storage date and whether its files were purged.
#[derive(Debug, Clone, Copy)]
pub struct Dates {
    pub storage_expires_at: DateTime<Utc>,
    pub purged_at: Option<DateTime<Utc>>,
}

/// The owner's folder's dates, locking the row until the transaction ends.
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn lock_dates(
    conn: &mut PgConnection,
    owner_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Dates>> {
    sqlx::query_as!(
        Dates,
        "SELECT storage_expires_at, purged_at FROM folders WHERE owner_id = $1 AND id = $2
         FOR UPDATE",
        owner_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Moves the storage date and re-arms the expiry; returns the date as stored (microseconds).
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn set_storage_date(
    conn: &mut PgConnection,
    id: Uuid,
    until: DateTime<Utc>,
) -> sqlx::Result<DateTime<Utc>> {
    sqlx::query_scalar!(
        "UPDATE folders SET storage_expires_at = $2, expired_at = NULL, updated_at = now()
         WHERE id = $1 RETURNING storage_expires_at",
        id,
        until
    )
    .fetch_one(conn)
    .await
}

/// Renames the owner's folder; `false` when there is none.
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn rename(
    conn: &mut PgConnection,
    owner_id: Uuid,
    id: Uuid,
    name: &str,
) -> sqlx::Result<bool> {
    let updated = sqlx::query!(
        "UPDATE folders SET name = $3, updated_at = now() WHERE owner_id = $1 AND id = $2",
        owner_id,
        id,
        name
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(updated > 0)
}

/// Deletes the folder (its items, rental and steps go with it).
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn delete(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM folders WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every folder of the owner.
#[tracing::instrument(skip_all, fields(user.id = %owner_id))]
pub async fn ids_of_owner(conn: &mut PgConnection, owner_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!("SELECT id FROM folders WHERE owner_id = $1", owner_id)
        .fetch_all(conn)
        .await
}

/// Who owns a folder, and the organization it belongs to.
#[derive(Debug, Clone, Copy)]
pub struct Holder {
    pub owner_id: Uuid,
    pub organization_id: Option<Uuid>,
}

#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn holder(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Holder>> {
    sqlx::query_as!(
        Holder,
        "SELECT owner_id, organization_id FROM folders WHERE id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The owner of an organization folder (`None` for any other folder).
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn organization_folder_owner(
    conn: &mut PgConnection,
    id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT owner_id FROM folders WHERE id = $1 AND organization_id IS NOT NULL",
        id
    )
    .fetch_optional(conn)
    .await
}

/// A folder the sweeper marked expired.
#[derive(Debug, Clone, Copy)]
pub struct Expired {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub storage_expires_at: DateTime<Utc>,
}

/// Marks up to 500 folders whose storage date has passed (skipping rows another sweeper holds).
#[tracing::instrument(skip_all)]
pub async fn mark_expired(conn: &mut PgConnection) -> sqlx::Result<Vec<Expired>> {
    sqlx::query_as!(
        Expired,
        "UPDATE folders SET expired_at = now() WHERE id IN (
           SELECT id FROM folders WHERE expired_at IS NULL AND storage_expires_at <= now()
           LIMIT 500 FOR UPDATE SKIP LOCKED)
         RETURNING id, owner_id, storage_expires_at"
    )
    .fetch_all(conn)
    .await
}

/// Up to 100 expired folders whose grace period of `retention_days` has passed.
#[tracing::instrument(skip_all)]
pub async fn due_for_purge(
    conn: &mut PgConnection,
    retention_days: i32,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM folders WHERE expired_at IS NOT NULL AND purged_at IS NULL
         AND storage_expires_at <= now() - make_interval(days => $1::int) LIMIT 100",
        retention_days
    )
    .fetch_all(conn)
    .await
}

/// The owner of a folder still due for purging, locking it until the transaction ends (an
/// extension waits, then finds it purged); `None` when it was extended or purged meanwhile.
#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn lock_for_purge(
    conn: &mut PgConnection,
    id: Uuid,
    retention_days: i32,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT owner_id FROM folders WHERE id = $1 AND expired_at IS NOT NULL AND purged_at IS NULL
         AND storage_expires_at <= now() - make_interval(days => $2::int) FOR UPDATE",
        id,
        retention_days
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(folder.id = %id))]
pub async fn mark_purged(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE folders SET purged_at = now(), updated_at = now() WHERE id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}
