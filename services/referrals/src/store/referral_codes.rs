//! `referral_codes`: each user's own code.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::ReferralCode;

/// Inserts the code unless the user has one or the code is taken; true when it was inserted.
#[tracing::instrument(skip_all)]
pub async fn insert(conn: &mut PgConnection, user_id: Uuid, code: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "INSERT INTO referral_codes (user_id, code) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        user_id,
        code
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

#[tracing::instrument(skip_all)]
pub async fn find(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<ReferralCode>> {
    sqlx::query_as!(
        ReferralCode,
        r#"SELECT code, type AS "kind" FROM referral_codes WHERE user_id = $1"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn delete(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM referral_codes WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Whose code this is.
#[tracing::instrument(skip_all)]
pub async fn owner(conn: &mut PgConnection, code: &str) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar!("SELECT user_id FROM referral_codes WHERE code = $1", code)
        .fetch_optional(conn)
        .await
}
