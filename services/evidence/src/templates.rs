//! Capture templates: an organization's ordered steps (what to capture, which media, how many
//! files). Participants read and use them; owners and admins create, edit, reorder and archive
//! them. Editing replaces the step list in the order given; a step sent with its id keeps it.

use chrono::{DateTime, Utc};
use evidentia_common::{
    errors::FieldError,
    text::{REFUSED_CHARACTERS, has_refused, has_refused_single_line},
};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::MediaType, error::EvidenceError, organizations::Membership};

pub const MAX_STEPS: usize = 20;
pub const MAX_FILES_PER_STEP: i32 = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepInput {
    pub id: Option<Uuid>,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaType>,
    pub min_files: i32,
    pub max_files: i32,
}

#[derive(Debug, Clone)]
pub struct TemplateInput {
    pub name: String,
    pub description: String,
    pub steps: Vec<StepInput>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Step {
    pub id: Uuid,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<String>,
    pub min_files: i32,
    pub max_files: i32,
}

impl Step {
    pub fn media(&self) -> Vec<MediaType> {
        self.media_types
            .iter()
            .filter_map(|m| MediaType::from_db(m))
            .collect()
    }
}

#[derive(Debug, Clone)]
pub struct Template {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    pub archived: bool,
    pub steps: Vec<Step>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: Uuid,
    name: String,
    description: String,
    archived_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

fn text(
    errors: &mut Vec<FieldError>,
    field: &str,
    value: &str,
    min: usize,
    max: usize,
    single_line: bool,
) -> String {
    let value = value.trim();
    let len = value.chars().count();
    let refused = if single_line {
        has_refused_single_line(value)
    } else {
        has_refused(value)
    };
    if refused {
        errors.push(FieldError::new(field, REFUSED_CHARACTERS));
    } else if min > 0 && len == 0 {
        errors.push(FieldError::new(field, "This field is required"));
    } else if len < min {
        errors.push(FieldError::new(
            field,
            format!("Must be {min} characters or more"),
        ));
    } else if len > max {
        errors.push(FieldError::new(
            field,
            format!("Must be {max} characters or less"),
        ));
    }
    value.to_owned()
}

/// Checks a template as sent: a name (2 to 50 characters), a description (at most 500), and 1 to
/// 20 steps, each with a name, instructions (at most 500), at least one media type, and
/// `0 <= min_files <= max_files`, `1 <= max_files <= 20`. Field errors name `steps[i].<field>`.
pub fn validate(input: TemplateInput) -> Result<TemplateInput, EvidenceError> {
    let mut errors = Vec::new();
    let name = text(&mut errors, "name", &input.name, 2, 50, true);
    let description = text(
        &mut errors,
        "description",
        &input.description,
        0,
        500,
        false,
    );
    if input.steps.is_empty() {
        errors.push(FieldError::new("steps", "Add at least one step."));
    }
    if input.steps.len() > MAX_STEPS {
        errors.push(FieldError::new(
            "steps",
            format!("A template has at most {MAX_STEPS} steps."),
        ));
    }
    let mut seen_ids = std::collections::HashSet::new();
    let steps = input
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            let field = |f: &str| format!("steps[{i}].{f}");
            let name = text(&mut errors, &field("name"), &step.name, 2, 50, true);
            let instructions = text(
                &mut errors,
                &field("instructions"),
                &step.instructions,
                0,
                500,
                false,
            );
            let mut media_types = Vec::new();
            for media in &step.media_types {
                if !media_types.contains(media) {
                    media_types.push(*media);
                }
            }
            if media_types.is_empty() {
                errors.push(FieldError::new(
                    field("media_types"),
                    "Choose at least one of photo, video or audio.",
                ));
            }
            if !(1..=MAX_FILES_PER_STEP).contains(&step.max_files) {
                errors.push(FieldError::new(
                    field("max_files"),
                    format!("Between 1 and {MAX_FILES_PER_STEP} files."),
                ));
            }
            if step.min_files < 0 || step.min_files > step.max_files {
                errors.push(FieldError::new(
                    field("min_files"),
                    "At least 0 and at most the maximum.",
                ));
            }
            if let Some(id) = step.id
                && !seen_ids.insert(id)
            {
                errors.push(FieldError::new(field("id"), "This step is listed twice."));
            }
            StepInput {
                id: step.id,
                name,
                instructions,
                media_types,
                min_files: step.min_files,
                max_files: step.max_files,
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(TemplateInput {
            name,
            description,
            steps,
        })
    } else {
        Err(EvidenceError::Invalid(errors))
    }
}

async fn steps_of(conn: &mut PgConnection, template_id: Uuid) -> Result<Vec<Step>, EvidenceError> {
    Ok(sqlx::query_as(
        "SELECT id, name, instructions, media_types, min_files, max_files FROM template_steps \
         WHERE template_id = $1 ORDER BY position",
    )
    .bind(template_id)
    .fetch_all(conn)
    .await?)
}

fn assemble(row: Row, steps: Vec<Step>) -> Template {
    Template {
        id: row.id,
        name: row.name,
        description: row.description,
        archived: row.archived_at.is_some(),
        steps,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// The organization's template; another organization's is `NotFound`.
pub async fn get(
    conn: &mut PgConnection,
    member: &Membership,
    id: Uuid,
) -> Result<Template, EvidenceError> {
    let row: Row = sqlx::query_as(
        "SELECT id, name, description, archived_at, created_at, updated_at FROM capture_templates \
         WHERE organization_id = $1 AND id = $2",
    )
    .bind(member.organization_id)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(EvidenceError::NotFound)?;
    let steps = steps_of(conn, row.id).await?;
    Ok(assemble(row, steps))
}

/// The organization's templates, newest first: the archived ones, or the others.
pub async fn list(
    conn: &mut PgConnection,
    member: &Membership,
    archived: bool,
) -> Result<Vec<Template>, EvidenceError> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, name, description, archived_at, created_at, updated_at FROM capture_templates \
         WHERE organization_id = $1 AND (archived_at IS NOT NULL) = $2 ORDER BY created_at DESC",
    )
    .bind(member.organization_id)
    .bind(archived)
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let steps = steps_of(conn, row.id).await?;
        out.push(assemble(row, steps));
    }
    Ok(out)
}

async fn write_steps(
    conn: &mut PgConnection,
    template_id: Uuid,
    steps: &[StepInput],
) -> Result<(), EvidenceError> {
    // Steps sent with an id must be this template's; the others are new.
    let existing: Vec<Uuid> =
        sqlx::query_scalar("SELECT id FROM template_steps WHERE template_id = $1")
            .bind(template_id)
            .fetch_all(&mut *conn)
            .await?;
    let mut errors = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if let Some(id) = step.id
            && !existing.contains(&id)
        {
            errors.push(FieldError::new(
                format!("steps[{i}].id"),
                "This step is not one of the template's.",
            ));
        }
    }
    if !errors.is_empty() {
        return Err(EvidenceError::Invalid(errors));
    }
    let kept: Vec<Uuid> = steps.iter().filter_map(|s| s.id).collect();
    sqlx::query("DELETE FROM template_steps WHERE template_id = $1 AND NOT (id = ANY($2))")
        .bind(template_id)
        .bind(&kept)
        .execute(&mut *conn)
        .await?;
    for (position, step) in steps.iter().enumerate() {
        let media: Vec<&str> = step.media_types.iter().map(|m| m.as_str()).collect();
        sqlx::query(
            "INSERT INTO template_steps (id, template_id, position, name, instructions, media_types, min_files, max_files) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, name = EXCLUDED.name, \
             instructions = EXCLUDED.instructions, media_types = EXCLUDED.media_types, \
             min_files = EXCLUDED.min_files, max_files = EXCLUDED.max_files",
        )
        .bind(step.id.unwrap_or_else(Uuid::now_v7))
        .bind(template_id)
        .bind(i32::try_from(position).map_err(anyhow::Error::from)?)
        .bind(&step.name)
        .bind(&step.instructions)
        .bind(&media)
        .bind(step.min_files)
        .bind(step.max_files)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Creates a template (owners and admins).
pub async fn create(
    conn: &mut PgConnection,
    member: &Membership,
    user: Uuid,
    input: TemplateInput,
) -> Result<Template, EvidenceError> {
    member.require_manager()?;
    let input = validate(input)?;
    let id = Uuid::now_v7();
    sqlx::query(
        "INSERT INTO capture_templates (id, organization_id, name, description, created_by) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(member.organization_id)
    .bind(&input.name)
    .bind(&input.description)
    .bind(user)
    .execute(&mut *conn)
    .await?;
    write_steps(conn, id, &input.steps).await?;
    get(conn, member, id).await
}

/// Replaces a template's name, description and steps (owners and admins).
pub async fn update(
    conn: &mut PgConnection,
    member: &Membership,
    id: Uuid,
    input: TemplateInput,
) -> Result<Template, EvidenceError> {
    let locked: Option<Uuid> = sqlx::query_scalar(
        "SELECT id FROM capture_templates WHERE organization_id = $1 AND id = $2 FOR UPDATE",
    )
    .bind(member.organization_id)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    locked.ok_or(EvidenceError::NotFound)?;
    member.require_manager()?;
    let input = validate(input)?;
    sqlx::query(
        "UPDATE capture_templates SET name = $2, description = $3, updated_at = now() WHERE id = $1",
    )
    .bind(id)
    .bind(&input.name)
    .bind(&input.description)
    .execute(&mut *conn)
    .await?;
    write_steps(conn, id, &input.steps).await?;
    get(conn, member, id).await
}

/// Archives a template (it is no longer offered for new folders) or brings it back.
pub async fn archive(
    conn: &mut PgConnection,
    member: &Membership,
    id: Uuid,
    archived: bool,
) -> Result<Template, EvidenceError> {
    get(conn, member, id).await?;
    member.require_manager()?;
    sqlx::query(
        "UPDATE capture_templates SET archived_at = CASE WHEN $2 THEN COALESCE(archived_at, now()) END, \
         updated_at = now() WHERE id = $1",
    )
    .bind(id)
    .bind(archived)
    .execute(&mut *conn)
    .await?;
    get(conn, member, id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(name: &str, min: i32, max: i32) -> StepInput {
        StepInput {
            id: None,
            name: name.to_owned(),
            instructions: String::new(),
            media_types: vec![MediaType::Image],
            min_files: min,
            max_files: max,
        }
    }

    fn fields(input: TemplateInput) -> Vec<String> {
        match validate(input) {
            Err(EvidenceError::Invalid(errors)) => errors.into_iter().map(|e| e.field).collect(),
            Ok(_) => Vec::new(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_template_needs_steps_whose_counts_hold() {
        let ok = TemplateInput {
            name: "Vehicle damage claim".into(),
            description: String::new(),
            steps: vec![step("Front", 1, 1), step("Close ups", 0, 5)],
        };
        assert!(fields(ok.clone()).is_empty());
        let mut bad = ok.clone();
        bad.steps = vec![step("Front", 2, 1), step("x", 0, 21)];
        assert_eq!(
            fields(bad),
            vec!["steps[0].min_files", "steps[1].name", "steps[1].max_files"]
        );
        let mut none = ok;
        none.steps.clear();
        none.name = "\u{202e}abc".into();
        assert_eq!(fields(none), vec!["name", "steps"]);
    }
}
