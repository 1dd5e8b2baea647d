//! `referral_directory`: each account's addresses and first name, from `AccountCreated`.

use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct Entry {
    pub user_id: Uuid,
    pub email: String,
    pub phone: String,
    pub first_name: String,
}

#[tracing::instrument(skip_all, fields(user.id = %entry.user_id))]
pub async fn insert(conn: &mut PgConnection, entry: &Entry) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO referral_directory (user_id, email, phone, first_name) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO NOTHING",
        entry.user_id,
        entry.email,
        entry.phone,
        entry.first_name
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn find(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Entry>> {
    sqlx::query_as!(
        Entry,
        "SELECT user_id, email, phone, first_name FROM referral_directory WHERE user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Whether an account has this address (a lower-case e-mail or a phone key).
#[tracing::instrument(skip_all)]
pub async fn has_address(conn: &mut PgConnection, address: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
             SELECT 1 FROM referral_directory WHERE email = $1 OR (phone <> '' AND phone = $1)
           ) AS "found!""#,
        address
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn delete(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM referral_directory WHERE user_id = $1", user_id)
        .execute(conn)
        .await?;
    Ok(())
}
