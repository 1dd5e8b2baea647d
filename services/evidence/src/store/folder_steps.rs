//! `folder_steps`: an organization folder's own copy of its template's steps.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::FolderStep;

/// What a step takes, and how many files it holds that are not rejected or declined.
#[derive(Debug, Clone)]
pub struct Room {
    pub media_types: Vec<String>,
    pub max_files: i32,
    pub held: i64,
}

/// The folder's step and its room, locking the step until the transaction ends (two files at
/// once cannot both take its last place).
#[tracing::instrument(skip_all, fields(step.id = %id))]
pub async fn lock_room(
    conn: &mut PgConnection,
    id: Uuid,
    folder_id: Uuid,
) -> sqlx::Result<Option<Room>> {
    sqlx::query_as!(
        Room,
        r#"SELECT s.media_types, s.max_files,
             (SELECT COUNT(*) FROM items i WHERE i.step_id = s.id AND i.status <> 'rejected'
                AND i.review_state IS DISTINCT FROM 'declined') AS "held!"
           FROM folder_steps s WHERE s.id = $1 AND s.folder_id = $2 FOR UPDATE"#,
        id,
        folder_id
    )
    .fetch_optional(conn)
    .await
}

/// The steps of `folder_ids`, by folder and in order, with the files that count towards each.
#[tracing::instrument(skip_all)]
pub async fn of_folders(
    conn: &mut PgConnection,
    folder_ids: &[Uuid],
) -> sqlx::Result<Vec<FolderStep>> {
    sqlx::query_as!(
        FolderStep,
        r#"SELECT s.id, s.folder_id, s.name, s.instructions, s.media_types, s.min_files,
             s.max_files,
             COUNT(i.id) FILTER (WHERE i.status = 'verified' AND i.purged_at IS NULL
               AND (i.review_state IS NULL OR i.review_state = 'accepted')) AS "file_count!"
           FROM folder_steps s LEFT JOIN items i ON i.step_id = s.id
           WHERE s.folder_id = ANY($1) GROUP BY s.id ORDER BY s.folder_id, s.position"#,
        folder_ids
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn count(conn: &mut PgConnection, folder_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "count!" FROM folder_steps WHERE folder_id = $1"#,
        folder_id
    )
    .fetch_one(conn)
    .await
}

/// A step at its place in its folder.
#[derive(Debug, Clone)]
pub struct StepRow<'a> {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub position: i32,
    pub name: &'a str,
    pub instructions: &'a str,
    pub media_types: &'a [String],
    pub min_files: i32,
    pub max_files: i32,
}

#[tracing::instrument(skip_all, fields(step.id = %row.id))]
pub async fn insert(conn: &mut PgConnection, row: &StepRow<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO folder_steps
           (id, folder_id, position, name, instructions, media_types, min_files, max_files)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        row.id,
        row.folder_id,
        row.position,
        row.name,
        row.instructions,
        row.media_types,
        row.min_files,
        row.max_files
    )
    .execute(conn)
    .await?;
    Ok(())
}
