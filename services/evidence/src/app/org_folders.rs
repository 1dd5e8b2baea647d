//! Organization folders: made from a capture template (keeping their own copy of its steps),
//! owned by the organization's owner, reached by every participant. Each file belongs to one
//! step; a contribution from an anonymous contributor waits for a participant to accept or
//! decline it. A step is complete when it holds at least its minimum of files that count
//! (verified, and not pending or declined).

use std::collections::HashMap;

use evidentia_common::errors::FieldError;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{folders, items, templates},
    config::StoragePolicy,
    domain::{
        Decision, Folder, FolderStep, Item, MediaType, Membership, Name, NewFolder,
        OrganizationOrigin,
    },
    error::EvidenceError,
    store::{self, folder_steps},
};

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

/// The step a new file goes to: required (and of the folder, accepting the file's medium, with
/// room left) in an organization folder, refused in any other. The step stays locked until the
/// caller's transaction ends.
pub(crate) async fn check_step(
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
    let Some(room) = folder_steps::lock_room(conn, step_id, folder_id).await? else {
        return Err(invalid("This step is not one of the folder's."));
    };
    if !room.media_types.iter().any(|m| m == media.as_str()) {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "media_type",
            format!("This step takes {}.", room.media_types.join(", ")),
        )]));
    }
    if room.held >= i64::from(room.max_files) {
        return Err(invalid(&format!(
            "This step already holds its {} files.",
            room.max_files
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
    let template_ids: Vec<Uuid> = folders.iter().filter_map(|f| f.template_id).collect();
    let names: HashMap<Uuid, String> = store::templates::names(conn, &template_ids)
        .await?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let mut steps: HashMap<Uuid, Vec<FolderStep>> = HashMap::new();
    for step in folder_steps::of_folders(conn, &ids).await? {
        steps.entry(step.folder_id).or_default().push(step);
    }
    let pending: HashMap<Uuid, i64> = store::items::pending(conn, &ids)
        .await?
        .into_iter()
        .map(|p| (p.folder_id, p.count))
        .collect();
    let mut out = Vec::with_capacity(folders.len());
    for folder in folders {
        let (Some(organization_id), Some(template_id)) =
            (folder.organization_id, folder.template_id)
        else {
            return Err(EvidenceError::NotFound);
        };
        let mut files = if with_items {
            items::in_folder(conn, folder.owner_id, folder.id).await?
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

/// An organization folder as a participant asks for it.
#[derive(Debug, Clone)]
pub struct NewOrgFolder {
    pub template_id: Uuid,
    pub name: Name,
    /// The device's id for the folder, making the create idempotent.
    pub client_id: Option<Uuid>,
}

/// Opens a folder from one of the organization's templates that is not archived.
pub async fn create(
    pool: &PgPool,
    policy: &StoragePolicy,
    member: &Membership,
    new: NewOrgFolder,
) -> Result<OrgFolder, EvidenceError> {
    let NewOrgFolder {
        template_id,
        name,
        client_id,
    } = new;
    let mut tx = pool.begin().await?;
    let template = templates::find(&mut tx, member, template_id).await?;
    if template.archived {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "template_id",
            "This template is archived.",
        )]));
    }
    let folder = folders::create_in(
        &mut tx,
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
    if folder_steps::count(&mut tx, folder.id).await? == 0 {
        for (position, step) in template.steps.iter().enumerate() {
            folder_steps::insert(
                &mut tx,
                &folder_steps::StepRow {
                    id: Uuid::now_v7(),
                    folder_id: folder.id,
                    position: i32::try_from(position).map_err(anyhow::Error::from)?,
                    name: &step.name,
                    instructions: &step.instructions,
                    media_types: &step.media_types,
                    min_files: step.min_files,
                    max_files: step.max_files,
                },
            )
            .await?;
        }
    }
    let made = assemble_one(&mut tx, folder, true).await?;
    tx.commit().await?;
    Ok(made)
}

/// The organization's folders, newest first, with their steps' state (without files).
pub async fn list(pool: &PgPool, member: &Membership) -> Result<Vec<OrgFolder>, EvidenceError> {
    let mut conn = pool.acquire().await?;
    let found =
        store::folders::of_organization(&mut conn, member.owner_id, member.organization_id).await?;
    assemble(&mut conn, found, false).await
}

/// One organization folder with its steps and their files; the caller reaches it as the
/// organization's owner or one of its participants (checked by `access::folder`).
pub async fn get(pool: &PgPool, owner: Uuid, folder_id: Uuid) -> Result<OrgFolder, EvidenceError> {
    let mut conn = pool.acquire().await?;
    let folder = folders::owned(&mut conn, owner, folder_id).await?;
    assemble_one(&mut conn, folder, true).await
}

/// An organization folder as a contributor's link names it (no caller: the sharing service has
/// checked the contributor).
pub async fn for_contribution(pool: &PgPool, folder_id: Uuid) -> Result<OrgFolder, EvidenceError> {
    let mut conn = pool.acquire().await?;
    let owner = store::folders::organization_folder_owner(&mut conn, folder_id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    let folder = folders::owned(&mut conn, owner, folder_id).await?;
    assemble_one(&mut conn, folder, false).await
}

/// Accepts or declines a pending contribution (any participant). A declined file is deleted
/// after the configured period by the sweeper.
pub async fn review(
    pool: &PgPool,
    owner: Uuid,
    reviewer: Uuid,
    item_id: Uuid,
    decision: Decision,
) -> Result<Item, EvidenceError> {
    let mut conn = pool.acquire().await?;
    let item = items::owned(&mut conn, owner, item_id).await?;
    if item.review_state.as_deref() != Some("pending") {
        return Err(EvidenceError::WrongState(
            "This file is not waiting for a decision.",
        ));
    }
    if !matches!(item.status.as_str(), "uploaded" | "verified") {
        return Err(EvidenceError::WrongState("This file has not arrived yet."));
    }
    if !store::items::review(&mut conn, item_id, decision.as_str(), reviewer).await? {
        return Err(EvidenceError::WrongState(
            "This file is not waiting for a decision.",
        ));
    }
    items::owned(&mut conn, owner, item_id).await
}
