//! `capture_templates` and their `template_steps`.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Step;

/// A template without its steps.
#[derive(Debug, Clone)]
pub struct TemplateRow {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    pub archived_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The organization's template (`None` for another organization's).
#[tracing::instrument(skip_all, fields(template.id = %id))]
pub async fn get(
    conn: &mut PgConnection,
    organization_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<TemplateRow>> {
    sqlx::query_as!(
        TemplateRow,
        "SELECT id, name, description, archived_at, created_at, updated_at
         FROM capture_templates WHERE organization_id = $1 AND id = $2",
        organization_id,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The organization's templates, archived or not, newest first.
#[tracing::instrument(skip_all, fields(organization.id = %organization_id))]
pub async fn list(
    conn: &mut PgConnection,
    organization_id: Uuid,
    archived: bool,
) -> sqlx::Result<Vec<TemplateRow>> {
    sqlx::query_as!(
        TemplateRow,
        "SELECT id, name, description, archived_at, created_at, updated_at
         FROM capture_templates WHERE organization_id = $1 AND (archived_at IS NOT NULL) = $2
         ORDER BY created_at DESC",
        organization_id,
        archived
    )
    .fetch_all(conn)
    .await
}

/// The organization's template's id, locking the row until the transaction ends.
#[tracing::instrument(skip_all, fields(template.id = %id))]
pub async fn lock(
    conn: &mut PgConnection,
    organization_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM capture_templates WHERE organization_id = $1 AND id = $2 FOR UPDATE",
        organization_id,
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(template.id = %id))]
pub async fn insert(
    conn: &mut PgConnection,
    id: Uuid,
    organization_id: Uuid,
    name: &str,
    description: &str,
    created_by: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO capture_templates (id, organization_id, name, description, created_by)
         VALUES ($1, $2, $3, $4, $5)",
        id,
        organization_id,
        name,
        description,
        created_by
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(template.id = %id))]
pub async fn update(
    conn: &mut PgConnection,
    id: Uuid,
    name: &str,
    description: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE capture_templates SET name = $2, description = $3, updated_at = now() WHERE id = $1",
        id,
        name,
        description
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Archives the template (keeping the first archiving's time) or brings it back.
#[tracing::instrument(skip_all, fields(template.id = %id))]
pub async fn set_archived(conn: &mut PgConnection, id: Uuid, archived: bool) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE capture_templates
         SET archived_at = CASE WHEN $2 THEN COALESCE(archived_at, now()) END, updated_at = now()
         WHERE id = $1",
        id,
        archived
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A template's name, by id.
#[derive(Debug, Clone)]
pub struct TemplateName {
    pub id: Uuid,
    pub name: String,
}

#[tracing::instrument(skip_all)]
pub async fn names(conn: &mut PgConnection, ids: &[Uuid]) -> sqlx::Result<Vec<TemplateName>> {
    sqlx::query_as!(
        TemplateName,
        "SELECT id, name FROM capture_templates WHERE id = ANY($1)",
        ids
    )
    .fetch_all(conn)
    .await
}

/// A template's steps in order.
#[tracing::instrument(skip_all, fields(template.id = %template_id))]
pub async fn steps(conn: &mut PgConnection, template_id: Uuid) -> sqlx::Result<Vec<Step>> {
    sqlx::query_as!(
        Step,
        "SELECT id, name, instructions, media_types, min_files, max_files FROM template_steps
         WHERE template_id = $1 ORDER BY position",
        template_id
    )
    .fetch_all(conn)
    .await
}

#[tracing::instrument(skip_all, fields(template.id = %template_id))]
pub async fn step_ids(conn: &mut PgConnection, template_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM template_steps WHERE template_id = $1",
        template_id
    )
    .fetch_all(conn)
    .await
}

/// Deletes the template's steps but `kept`.
#[tracing::instrument(skip_all, fields(template.id = %template_id))]
pub async fn delete_steps_but(
    conn: &mut PgConnection,
    template_id: Uuid,
    kept: &[Uuid],
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM template_steps WHERE template_id = $1 AND NOT (id = ANY($2))",
        template_id,
        kept
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A step at its place in its template.
#[derive(Debug, Clone)]
pub struct StepRow<'a> {
    pub id: Uuid,
    pub template_id: Uuid,
    pub position: i32,
    pub name: &'a str,
    pub instructions: &'a str,
    pub media_types: &'a [String],
    pub min_files: i32,
    pub max_files: i32,
}

/// Writes a step: a new one, or an existing one (by id) with its new place and contents.
#[tracing::instrument(skip_all, fields(step.id = %row.id))]
pub async fn upsert_step(conn: &mut PgConnection, row: &StepRow<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO template_steps
           (id, template_id, position, name, instructions, media_types, min_files, max_files)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name,
           instructions = EXCLUDED.instructions, media_types = EXCLUDED.media_types,
           min_files = EXCLUDED.min_files, max_files = EXCLUDED.max_files",
        row.id,
        row.template_id,
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
