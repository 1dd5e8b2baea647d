//! `item_holds`: the items another service keeps for a later use, by hold.

use sqlx::PgConnection;
use uuid::Uuid;

/// Places the hold on the items (again is a no-op).
#[tracing::instrument(skip_all, fields(hold.id = %hold_id))]
pub async fn place(
    conn: &mut PgConnection,
    hold_id: Uuid,
    owner_id: Uuid,
    item_ids: &[Uuid],
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO item_holds (hold_id, owner_id, item_id)
         SELECT $1::uuid, $2::uuid, item_id FROM UNNEST($3::uuid[]) AS item_id
         ON CONFLICT DO NOTHING",
        hold_id,
        owner_id,
        item_ids
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(hold.id = %hold_id))]
pub async fn release(conn: &mut PgConnection, hold_id: Uuid, owner_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM item_holds WHERE hold_id = $1 AND owner_id = $2",
        hold_id,
        owner_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether a hold names the item.
#[tracing::instrument(skip_all, fields(item.id = %item_id))]
pub async fn item_held(conn: &mut PgConnection, item_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM item_holds WHERE item_id = $1) AS "held!""#,
        item_id
    )
    .fetch_one(conn)
    .await
}

/// Whether a hold names one of the folder's items.
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn folder_held(conn: &mut PgConnection, folder_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
             SELECT 1 FROM item_holds h JOIN items i ON i.id = h.item_id WHERE i.folder_id = $1
           ) AS "held!""#,
        folder_id
    )
    .fetch_one(conn)
    .await
}
