//! `rentals`: a rental folder's kind, vehicle type and moment, and a return's pick-up folder.

use sqlx::PgConnection;
use uuid::Uuid;

#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn insert(
    conn: &mut PgConnection,
    folder_id: Uuid,
    kind: &str,
    vehicle_type: Option<&str>,
    moment: &str,
    pickup_folder_id: Option<Uuid>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO rentals (folder_id, kind, vehicle_type, moment, pickup_folder_id)
         VALUES ($1, $2, $3, $4, $5)",
        folder_id,
        kind,
        vehicle_type,
        moment,
        pickup_folder_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A rental folder's kind and moment.
#[derive(Debug, Clone)]
pub struct KindMoment {
    pub kind: String,
    pub moment: String,
}

/// The kind and moment of the owner's rental folder (`None` for another user's, or no rental).
#[tracing::instrument(skip_all, fields(folder.id = %folder_id))]
pub async fn of_owner(
    conn: &mut PgConnection,
    owner_id: Uuid,
    folder_id: Uuid,
) -> sqlx::Result<Option<KindMoment>> {
    sqlx::query_as!(
        KindMoment,
        "SELECT r.kind, r.moment FROM rentals r JOIN folders f ON f.id = r.folder_id
         WHERE f.owner_id = $1 AND f.id = $2",
        owner_id,
        folder_id
    )
    .fetch_optional(conn)
    .await
}
