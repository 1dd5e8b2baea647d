//! `stripe_events`: webhook events already processed (Stripe delivers at least once).

use sqlx::PgConnection;

/// Records the event; false when it was recorded before.
#[tracing::instrument(skip_all)]
pub async fn insert_first(conn: &mut PgConnection, id: &str, kind: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
        id,
        kind
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}
