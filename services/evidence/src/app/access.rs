//! Who may reach an organization's templates and folders. Membership and roles live in accounts,
//! which is asked per call (`Memberships`). An organization folder's `owner_id` is the
//! organization's owner, so the rest of this service (uploads, usage, storage dates, extensions)
//! treats it like any folder of theirs.

use evidentia_common::grpc::Caller;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::Membership,
    error::EvidenceError,
    memberships::Memberships,
    store::{folders, items},
};

/// The caller's membership, or `NotFound` (an individual account has no organization to show).
pub async fn require(
    memberships: &dyn Memberships,
    caller: &Caller,
) -> Result<Membership, EvidenceError> {
    memberships.of(caller).await?.ok_or(EvidenceError::NotFound)
}

/// How the caller reaches a folder: as its owner, or as a participant of its organization.
#[derive(Debug, Clone, Copy)]
pub struct FolderAccess {
    /// The folder's owner: the id the item and folder functions are keyed by.
    pub owner: Uuid,
    /// Set for an organization folder reached by a participant other than its owner.
    pub membership: Option<Membership>,
}

impl FolderAccess {
    /// Renaming or deleting in an organization folder is for its owners and admins.
    pub fn require_manager(&self) -> Result<(), EvidenceError> {
        match &self.membership {
            Some(m) => m.require_manager(),
            None => Ok(()),
        }
    }
}

async fn reach(
    memberships: &dyn Memberships,
    caller: &Caller,
    user: Uuid,
    found: Option<(Uuid, Option<Uuid>)>,
) -> Result<FolderAccess, EvidenceError> {
    let Some((owner, organization)) = found else {
        return Err(EvidenceError::NotFound);
    };
    match organization {
        // The owner's own folder, or an organization folder reached by the organization's owner
        // (whose role is looked up all the same: it decides nothing they could not do).
        _ if owner == user => Ok(FolderAccess {
            owner,
            membership: None,
        }),
        Some(organization) => match memberships.of(caller).await? {
            Some(m) if m.organization_id == organization => Ok(FolderAccess {
                owner,
                membership: Some(m),
            }),
            _ => Err(EvidenceError::NotFound),
        },
        None => Err(EvidenceError::NotFound),
    }
}

/// The access of the signed-in caller to a folder; another user's private folder, or another organization's
/// folder, is `NotFound`. Accounts is asked only for someone else's organization folder.
pub async fn folder(
    pool: &PgPool,
    memberships: &dyn Memberships,
    caller: &Caller,
    folder_id: Uuid,
) -> Result<FolderAccess, EvidenceError> {
    let user = caller.require_user().map_err(|_| EvidenceError::NotFound)?;
    let found = folders::holder(&mut *pool.acquire().await?, folder_id)
        .await?
        .map(|f| (f.owner_id, f.organization_id));
    reach(memberships, caller, user, found).await
}

/// The access of the signed-in caller to an item, through its folder.
pub async fn item(
    pool: &PgPool,
    memberships: &dyn Memberships,
    caller: &Caller,
    item_id: Uuid,
) -> Result<FolderAccess, EvidenceError> {
    let user = caller.require_user().map_err(|_| EvidenceError::NotFound)?;
    let found = items::holder(&mut *pool.acquire().await?, item_id)
        .await?
        .map(|f| (f.owner_id, f.organization_id));
    reach(memberships, caller, user, found).await
}
