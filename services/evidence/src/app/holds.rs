//! Holds: another service (sharing, for a futuregram) keeps some of an owner's items for a later
//! use. A held item cannot be deleted or retaken, nor its folder deleted, until every hold on it
//! is released.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    error::EvidenceError,
    store::{holds, items},
};

/// Places the hold on the owner's items (again is a no-op); NOT_FOUND if one is not theirs.
#[tracing::instrument(skip_all, fields(user.id = %owner, hold.id = %hold_id))]
pub async fn place(
    pool: &PgPool,
    owner: Uuid,
    hold_id: Uuid,
    item_ids: &[Uuid],
) -> Result<(), EvidenceError> {
    let mut tx = pool.begin().await?;
    // Locked against a delete until the hold commits (a delete checks for holds under its own
    // lock of the items): either the delete waits and then sees the hold, or the hold waits and
    // finds the items gone. Neither both succeeds.
    let mine = items::count_owned(&mut tx, owner, item_ids).await?;
    let distinct = {
        let mut ids = item_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    if usize::try_from(mine).ok() != Some(distinct) {
        return Err(EvidenceError::NotFound);
    }
    holds::place(&mut tx, hold_id, owner, item_ids).await?;
    tx.commit().await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %owner, hold.id = %hold_id))]
pub async fn release(pool: &PgPool, owner: Uuid, hold_id: Uuid) -> Result<(), EvidenceError> {
    holds::release(&mut *pool.acquire().await?, hold_id, owner).await?;
    Ok(())
}

/// Refuses a change to a held item.
pub async fn refuse_item(conn: &mut PgConnection, item_id: Uuid) -> Result<(), EvidenceError> {
    if holds::item_held(conn, item_id).await? {
        Err(EvidenceError::Held)
    } else {
        Ok(())
    }
}

/// Refuses deleting a folder that holds a held item.
pub async fn refuse_folder(conn: &mut PgConnection, folder_id: Uuid) -> Result<(), EvidenceError> {
    if holds::folder_held(conn, folder_id).await? {
        Err(EvidenceError::Held)
    } else {
        Ok(())
    }
}
