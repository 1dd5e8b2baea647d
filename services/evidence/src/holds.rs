//! Holds: another service (sharing, for a futuregram) keeps some of an owner's items for a later
//! use. A held item cannot be deleted or retaken, nor its folder deleted, until every hold on it
//! is released.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::error::EvidenceError;

/// Places the hold on the owner's items (again is a no-op); NOT_FOUND if one is not theirs.
#[tracing::instrument(skip_all, fields(user.id = %owner, hold.id = %hold_id))]
pub async fn place(
    conn: &mut PgConnection,
    owner: Uuid,
    hold_id: Uuid,
    item_ids: &[Uuid],
) -> Result<(), EvidenceError> {
    let mine: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM items WHERE owner_id = $1 AND id = ANY($2) AND purged_at IS NULL",
    )
    .bind(owner)
    .bind(item_ids)
    .fetch_one(&mut *conn)
    .await?;
    let distinct = {
        let mut ids = item_ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    if usize::try_from(mine).ok() != Some(distinct) {
        return Err(EvidenceError::NotFound);
    }
    sqlx::query(
        "INSERT INTO item_holds (hold_id, owner_id, item_id) SELECT $1, $2, unnest($3::uuid[]) \
         ON CONFLICT DO NOTHING",
    )
    .bind(hold_id)
    .bind(owner)
    .bind(item_ids)
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %owner, hold.id = %hold_id))]
pub async fn release(conn: &mut PgConnection, owner: Uuid, hold_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM item_holds WHERE hold_id = $1 AND owner_id = $2")
        .bind(hold_id)
        .bind(owner)
        .execute(conn)
        .await?;
    Ok(())
}

/// Refuses a change to a held item.
pub async fn refuse_item(conn: &mut PgConnection, item_id: Uuid) -> Result<(), EvidenceError> {
    let held: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM item_holds WHERE item_id = $1)")
            .bind(item_id)
            .fetch_one(conn)
            .await?;
    if held {
        Err(EvidenceError::Held)
    } else {
        Ok(())
    }
}

/// Refuses deleting a folder that holds a held item.
pub async fn refuse_folder(conn: &mut PgConnection, folder_id: Uuid) -> Result<(), EvidenceError> {
    let held: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM item_holds h JOIN items i ON i.id = h.item_id \
         WHERE i.folder_id = $1)",
    )
    .bind(folder_id)
    .fetch_one(conn)
    .await?;
    if held {
        Err(EvidenceError::Held)
    } else {
        Ok(())
    }
}
