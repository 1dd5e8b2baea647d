//! Organization folders: made from a capture template (keeping their own copy of its steps),
//! owned by the organization's owner, reached by every participant. Each file belongs to one
//! step; a contribution from an anonymous contributor waits for a participant to accept or
//! decline it. A step is complete when it holds at least its minimum of files that count
//! (verified, and not pending or declined).

use evidentia_common::errors::FieldError;
use std::collections::HashMap;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    config::StoragePolicy,
    domain::{MediaType, Name},
    error::EvidenceError,
    folders::{self, Folder, NewFolder, OrganizationOrigin},
    items::{self, Item},
    organizations::Membership,
    templates,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FolderStep {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<String>,
    pub min_files: i32,
    pub max_files: i32,
    /// Files that count towards the step.
    pub file_count: i64,
}

impl FolderStep {
    pub fn complete(&self) -> bool {
        self.file_count >= i64::from(self.min_files)
    }

    pub fn media(&self) -> Vec<MediaType> {
        self.media_types
            .iter()
            .filter_map(|m| MediaType::from_db(m))
            .collect()
    }
}

/// An organization folder with its steps (and, when asked for one folder, their files).
#[derive(Debug, Clone)]
pub struct OrgFolder {
    pub folder: Folder,
    pub organization_id: Uuid,
    pub template_id: Uuid,
    pub template_name: String,
    pub steps: Vec<(FolderStep, Vec<Item>)>,
    pub pending_count: i64,
}

impl OrgFolder {
    pub fn steps_complete(&self) -> usize {
        self.steps.iter().filter(|(s, _)| s.complete()).count()
    }
}

const STEPS: &str = "SELECT s.id, s.folder_id, s.name, s.instructions, s.media_types, s.min_files, s.max_files, \
     COUNT(i.id) FILTER (WHERE i.status = 'verified' AND i.purged_at IS NULL \
                         AND (i.review_state IS NULL OR i.review_state = 'accepted')) AS file_count \
     FROM folder_steps s LEFT JOIN items i ON i.step_id = s.id \
     WHERE s.folder_id = ANY($1) GROUP BY s.id ORDER BY s.folder_id, s.position";

/// The step a new file goes to: required (and of the folder, accepting the file's medium, with
/// room left) in an organization folder, refused in any other.
pub async fn check_step(
    conn: &mut PgConnection,
    organization_folder: bool,
    folder_id: Uuid,
    step_id: Option<&str>,
    media: MediaType,
) -> Result<Option<Uuid>, EvidenceError> {
    let invalid = |message: &str| EvidenceError::Invalid(vec![FieldError::new("step_id", message)]);
    let step_id = match (organization_folder, step_id.filter(|s| !s.is_empty())) {
        (false, None) => return Ok(None),
        (false, Some(_)) => return Err(invalid("Only an organization folder has steps.")),
        (true, None) => return Err(invalid("Choose the step this file is for.")),
        (true, Some(step)) => {
            Uuid::parse_str(step).map_err(|_| invalid("This step is not one of the folder's."))?
        }
    };
    let step: Option<(Vec<String>, i32, i64)> = sqlx::query_as(
        "SELECT s.media_types, s.max_files, \
         (SELECT COUNT(*) FROM items i WHERE i.step_id = s.id AND i.status <> 'rejected' \
          AND i.review_state IS DISTINCT FROM 'declined') \
         FROM folder_steps s WHERE s.id = $1 AND s.folder_id = $2 FOR UPDATE",
    )
    .bind(step_id)
    .bind(folder_id)
    .fetch_optional(conn)
    .await?;
    let Some((media_types, max_files, held)) = step else {
        return Err(invalid("This step is not one of the folder's."));
    };
    if !media_types.iter().any(|m| m == media.as_str()) {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "media_type",
            format!("This step takes {}.", media_types.join(", ")),
        )]));
    }
    if held >= i64::from(max_files) {
        return Err(invalid(&format!(
            "This step already holds its {max_files} files."
        )));
    }
    Ok(Some(step_id))
}

/// The organization folders among `folders` with their steps, in the same order, in four
/// queries whatever their number; with `with_items`, each step's files too.
async fn assemble(
    conn: &mut PgConnection,
    folders: Vec<Folder>,
    with_items: bool,
) -> Result<Vec<OrgFolder>, EvidenceError> {
    let ids: Vec<Uuid> = folders.iter().map(|f| f.id).collect();
    let templates: Vec<Uuid> = folders.iter().filter_map(|f| f.template_id).collect();
    let names: HashMap<Uuid, String> = sqlx::query_as::<_, (Uuid, String)>(
        "SELECT id, name FROM capture_templates WHERE id = ANY($1)",
    )
    .bind(&templates)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    let mut steps: HashMap<Uuid, Vec<FolderStep>> = HashMap::new();
    for step in sqlx::query_as::<_, FolderStep>(STEPS)
        .bind(&ids)
        .fetch_all(&mut *conn)
        .await?
    {
        steps.entry(step.folder_id).or_default().push(step);
    }
    let pending: HashMap<Uuid, i64> = sqlx::query_as::<_, (Uuid, i64)>(
        "SELECT folder_id, COUNT(*) FROM items WHERE folder_id = ANY($1) AND review_state = 'pending' \
         AND status IN ('uploaded', 'verified') GROUP BY folder_id",
    )
    .bind(&ids)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .collect();
    let mut out = Vec::with_capacity(folders.len());
    for folder in folders {
        let (Some(organization_id), Some(template_id)) =
            (folder.organization_id, folder.template_id)
        else {
            return Err(EvidenceError::NotFound);
        };
        let mut files = if with_items {
            items::list(conn, folder.owner_id, folder.id).await?
        } else {
            Vec::new()
        };
        let steps = steps
            .remove(&folder.id)
            .unwrap_or_default()
            .into_iter()
            .map(|step| {
                let (mine, rest): (Vec<Item>, Vec<Item>) =
                    files.drain(..).partition(|i| i.step_id == Some(step.id));
                files = rest;
                (step, mine)
            })
            .collect();
        out.push(OrgFolder {
            organization_id,
            template_id,
            template_name: names.get(&template_id).cloned().unwrap_or_default(),
            steps,
            pending_count: pending.get(&folder.id).copied().unwrap_or(0),
            folder,
        });
    }
    Ok(out)
}

/// One organization folder, assembled.
async fn assemble_one(
    conn: &mut PgConnection,
    folder: Folder,
    with_items: bool,
) -> Result<OrgFolder, EvidenceError> {
    assemble(conn, vec![folder], with_items)
        .await?
        .pop()
        .ok_or(EvidenceError::NotFound)
}

/// Opens a folder from one of the organization's templates that is not archived.
pub async fn create(
    conn: &mut PgConnection,
    policy: &StoragePolicy,
    member: &Membership,
    template_id: Uuid,
    name: Name,
    client_id: Option<Uuid>,
) -> Result<OrgFolder, EvidenceError> {
    let template = templates::get(conn, member, template_id).await?;
    if template.archived {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "template_id",
            "This template is archived.",
        )]));
    }
    let folder = folders::create(
        conn,
        policy,
        member.owner_id,
        &NewFolder {
            name,
            client_id,
            rental: None,
            organization: Some(OrganizationOrigin {
                organization_id: member.organization_id,
                template_id,
            }),
        },
    )
    .await?;
    if folder.organization_id != Some(member.organization_id) {
        // The owner's client id named a folder of another kind.
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "client_id",
            "This id names another folder.",
        )]));
    }
    let made: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM folder_steps WHERE folder_id = $1")
        .bind(folder.id)
        .fetch_one(&mut *conn)
        .await?;
    if made == 0 {
        for (position, step) in template.steps.iter().enumerate() {
            sqlx::query(
                "INSERT INTO folder_steps (id, folder_id, position, name, instructions, media_types, min_files, max_files) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(Uuid::now_v7())
            .bind(folder.id)
            .bind(i32::try_from(position).map_err(anyhow::Error::from)?)
            .bind(&step.name)
            .bind(&step.instructions)
            .bind(&step.media_types)
            .bind(step.min_files)
            .bind(step.max_files)
            .execute(&mut *conn)
            .await?;
        }
    }
    assemble_one(conn, folder, true).await
}

/// The organization's folders, newest first, with their steps' state (without files).
pub async fn list(
    conn: &mut PgConnection,
    member: &Membership,
) -> Result<Vec<OrgFolder>, EvidenceError> {
    let found = folders::of_organization(conn, member.owner_id, member.organization_id).await?;
    assemble(conn, found, false).await
}

/// One organization folder with its steps and their files; the caller reaches it as the
/// organization's owner or one of its participants (checked by the caller of this function).
pub async fn get(
    conn: &mut PgConnection,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<OrgFolder, EvidenceError> {
    let folder = folders::get(conn, owner, folder_id).await?;
    assemble_one(conn, folder, true).await
}

/// An organization folder as a contributor's link names it (no caller: the sharing service has
/// checked the contributor).
pub async fn for_contribution(
    conn: &mut PgConnection,
    folder_id: Uuid,
) -> Result<OrgFolder, EvidenceError> {
    let owner: Option<Uuid> = sqlx::query_scalar(
        "SELECT owner_id FROM folders WHERE id = $1 AND organization_id IS NOT NULL",
    )
    .bind(folder_id)
    .fetch_optional(&mut *conn)
    .await?;
    let folder = folders::get(conn, owner.ok_or(EvidenceError::NotFound)?, folder_id).await?;
    assemble_one(conn, folder, false).await
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accepted,
    Declined,
}

impl Decision {
    pub fn parse(value: &str) -> Result<Self, EvidenceError> {
        match value {
            "accepted" => Ok(Self::Accepted),
            "declined" => Ok(Self::Declined),
            _ => Err(EvidenceError::Invalid(vec![FieldError::new(
                "decision",
                "Choose accepted or declined.",
            )])),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::Declined => "declined",
        }
    }
}

/// Accepts or declines a pending contribution (any participant). A declined file is deleted
/// after the configured period by the sweeper.
pub async fn review(
    conn: &mut PgConnection,
    owner: Uuid,
    reviewer: Uuid,
    item_id: Uuid,
    decision: Decision,
) -> Result<Item, EvidenceError> {
    let item = items::get(conn, owner, item_id).await?;
    if item.review_state.as_deref() != Some("pending") {
        return Err(EvidenceError::WrongState(
            "This file is not waiting for a decision.",
        ));
    }
    if !matches!(item.status.as_str(), "uploaded" | "verified") {
        return Err(EvidenceError::WrongState("This file has not arrived yet."));
    }
    let changed = sqlx::query(
        "UPDATE items SET review_state = $2, reviewed_by = $3, reviewed_at = now(), updated_at = now() \
         WHERE id = $1 AND review_state = 'pending'",
    )
    .bind(item_id)
    .bind(decision.as_str())
    .bind(reviewer)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(EvidenceError::WrongState(
            "This file is not waiting for a decision.",
        ));
    }
    items::get(conn, owner, item_id).await
}
