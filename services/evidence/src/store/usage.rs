//! `storage_usage`: each user's bytes, files and folders, kept in step with their folders and
//! items.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Usage;

/// The user's row, from sign-up on (again is a no-op).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn open(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO storage_usage (user_id) VALUES ($1) ON CONFLICT DO NOTHING",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn get(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Usage>> {
    sqlx::query_as!(
        Usage,
        "SELECT used_bytes, file_count, folder_count FROM storage_usage WHERE user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// One more folder (the row is made if the sign-up event has not arrived yet).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn add_folder(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO storage_usage (user_id, folder_count) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE
         SET folder_count = storage_usage.folder_count + 1, updated_at = now()",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A deleted folder leaves the usage with the files and bytes it counted for.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn remove_folder(
    conn: &mut PgConnection,
    user_id: Uuid,
    files: i64,
    bytes: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE storage_usage SET folder_count = GREATEST(folder_count - 1, 0),
         file_count = GREATEST(file_count - $2, 0), used_bytes = GREATEST(used_bytes - $3, 0),
         updated_at = now()
         WHERE user_id = $1",
        user_id,
        files,
        bytes
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Files deleted or purged leave the usage (never below zero).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn remove_files(
    conn: &mut PgConnection,
    user_id: Uuid,
    files: i64,
    bytes: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE storage_usage SET file_count = GREATEST(file_count - $2, 0),
         used_bytes = GREATEST(used_bytes - $3, 0), updated_at = now()
         WHERE user_id = $1",
        user_id,
        files,
        bytes
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A verified file counts: `files` more (none for a retake, which replaces one) and `bytes` more
/// (a retake's difference, which may be negative).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn add_verified(
    conn: &mut PgConnection,
    user_id: Uuid,
    files: i64,
    bytes: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO storage_usage (user_id, file_count, used_bytes) VALUES ($1, $3, GREATEST($2::bigint, 0))
         ON CONFLICT (user_id) DO UPDATE SET file_count = storage_usage.file_count + $3,
         used_bytes = GREATEST(storage_usage.used_bytes + $2, 0), updated_at = now()",
        user_id,
        bytes,
        files
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn delete(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM storage_usage WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}
