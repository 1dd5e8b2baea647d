//! Capture templates: an organization's ordered steps (what to capture, which media, how many
//! files). Participants read and use them; owners and admins create, edit, reorder and archive
//! them. Editing replaces the step list in the order given; a step sent with its id keeps it.

use evidentia_common::{
    errors::FieldError,
    text::{REFUSED_CHARACTERS, has_refused, has_refused_single_line},
};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    domain::{Membership, StepInput, Template, TemplateInput},
    error::EvidenceError,
    store::templates::{self, StepRow, TemplateRow},
};

pub const MAX_STEPS: usize = 20;
pub const MAX_FILES_PER_STEP: i32 = 20;

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

fn assemble(row: TemplateRow, steps: Vec<crate::domain::Step>) -> Template {
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
pub async fn get(pool: &PgPool, member: &Membership, id: Uuid) -> Result<Template, EvidenceError> {
    find(&mut *pool.acquire().await?, member, id).await
}

/// `get` on the caller's connection.
pub(crate) async fn find(
    conn: &mut PgConnection,
    member: &Membership,
    id: Uuid,
) -> Result<Template, EvidenceError> {
    let row = templates::get(conn, member.organization_id, id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    let steps = templates::steps(conn, row.id).await?;
    Ok(assemble(row, steps))
}

/// The organization's templates, newest first: the archived ones, or the others.
pub async fn list(
    pool: &PgPool,
    member: &Membership,
    archived: bool,
) -> Result<Vec<Template>, EvidenceError> {
    let mut conn = pool.acquire().await?;
    let rows = templates::list(&mut conn, member.organization_id, archived).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let steps = templates::steps(&mut conn, row.id).await?;
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
    let existing = templates::step_ids(conn, template_id).await?;
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
    templates::delete_steps_but(conn, template_id, &kept).await?;
    for (position, step) in steps.iter().enumerate() {
        let media: Vec<String> = step
            .media_types
            .iter()
            .map(|m| m.as_str().to_owned())
            .collect();
        templates::upsert_step(
            conn,
            &StepRow {
                id: step.id.unwrap_or_else(Uuid::now_v7),
                template_id,
                position: i32::try_from(position).map_err(anyhow::Error::from)?,
                name: &step.name,
                instructions: &step.instructions,
                media_types: &media,
                min_files: step.min_files,
                max_files: step.max_files,
            },
        )
        .await?;
    }
    Ok(())
}

/// Creates a template (owners and admins).
pub async fn create(
    pool: &PgPool,
    member: &Membership,
    user: Uuid,
    input: TemplateInput,
) -> Result<Template, EvidenceError> {
    member.require_manager()?;
    let input = validate(input)?;
    let id = Uuid::now_v7();
    let mut tx = pool.begin().await?;
    templates::insert(
        &mut tx,
        id,
        member.organization_id,
        &input.name,
        &input.description,
        user,
    )
    .await?;
    write_steps(&mut tx, id, &input.steps).await?;
    let made = find(&mut tx, member, id).await?;
    tx.commit().await?;
    Ok(made)
}

/// Replaces a template's name, description and steps (owners and admins).
pub async fn update(
    pool: &PgPool,
    member: &Membership,
    id: Uuid,
    input: TemplateInput,
) -> Result<Template, EvidenceError> {
    let mut tx = pool.begin().await?;
    templates::lock(&mut tx, member.organization_id, id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    member.require_manager()?;
    let input = validate(input)?;
    templates::update(&mut tx, id, &input.name, &input.description).await?;
    write_steps(&mut tx, id, &input.steps).await?;
    let changed = find(&mut tx, member, id).await?;
    tx.commit().await?;
    Ok(changed)
}

/// Archives a template (it is no longer offered for new folders) or brings it back.
pub async fn archive(
    pool: &PgPool,
    member: &Membership,
    id: Uuid,
    archived: bool,
) -> Result<Template, EvidenceError> {
    let mut conn = pool.acquire().await?;
    find(&mut conn, member, id).await?;
    member.require_manager()?;
    templates::set_archived(&mut conn, id, archived).await?;
    find(&mut conn, member, id).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::MediaType;

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
