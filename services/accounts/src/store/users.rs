//! `users`: the account, its credentials, contact details, profile and soft-delete state.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::Address;

#[derive(Debug, Clone)]
pub struct User {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone_country_code: String,
    pub phone_national_number: String,
    pub account_type: String,
    pub communication_method: String,
    pub country: String,
    pub apartment_number: String,
    pub province: String,
    pub street: String,
    pub house: String,
    pub city: String,
    pub zip_code: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug)]
pub struct NewUser<'a> {
    pub id: Uuid,
    pub username: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub phone_country_code: &'a str,
    pub phone_national_number: &'a str,
    pub account_type: &'a str,
}

/// What signing in checks.
#[derive(Debug)]
pub struct Credentials {
    pub id: Uuid,
    pub password_hash: String,
    pub deleted_at: Option<DateTime<Utc>>,
    pub recoverable_until: Option<DateTime<Utc>>,
}

/// Where an account's messages can go.
#[derive(Debug)]
pub struct Contact {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub phone_country_code: String,
    pub phone_national_number: String,
    pub communication_method: String,
}

/// Inserts the user; a taken username, e-mail or phone fails on its unique index
/// (`users_username_key`, `users_email_key`, `users_phone_key`).
#[tracing::instrument(skip_all, fields(user.id = %user.id))]
pub async fn insert(conn: &mut PgConnection, user: &NewUser<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO users (id, username, email, password_hash, first_name, last_name,
           phone_country_code, phone_national_number, account_type)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        user.id,
        user.username,
        user.email,
        user.password_hash,
        user.first_name,
        user.last_name,
        user.phone_country_code,
        user.phone_national_number,
        user.account_type
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn username_taken(conn: &mut PgConnection, username: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1)) AS "taken!""#,
        username
    )
    .fetch_one(conn)
    .await
}

/// Whether an account (other than `except`) has this e-mail.
#[tracing::instrument(skip_all)]
pub async fn email_taken(
    conn: &mut PgConnection,
    email: &str,
    except: Option<Uuid>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
             SELECT 1 FROM users WHERE lower(email) = lower($1) AND id IS DISTINCT FROM $2
           ) AS "taken!""#,
        email,
        except
    )
    .fetch_one(conn)
    .await
}

/// Whether an account (other than `except`) has this phone number.
#[tracing::instrument(skip_all)]
pub async fn phone_taken(
    conn: &mut PgConnection,
    country_code: &str,
    national_number: &str,
    except: Option<Uuid>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (
             SELECT 1 FROM users WHERE phone_country_code = $1 AND phone_national_number = $2
             AND id IS DISTINCT FROM $3
           ) AS "taken!""#,
        country_code,
        national_number,
        except
    )
    .fetch_one(conn)
    .await
}

/// The account a username or e-mail (lower case) names, deleted ones included.
#[tracing::instrument(skip_all)]
pub async fn credentials_by_login(
    conn: &mut PgConnection,
    login: &str,
) -> sqlx::Result<Option<Credentials>> {
    sqlx::query_as!(
        Credentials,
        "SELECT id, password_hash, deleted_at, recoverable_until FROM users
         WHERE lower(username) = $1 OR lower(email) = $1 LIMIT 1",
        login
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn password_hash(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT password_hash FROM users WHERE id = $1", id)
        .fetch_optional(conn)
        .await
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_password_hash(conn: &mut PgConnection, id: Uuid, hash: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1",
        id,
        hash
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the user is not deleted; `None` when there is no such user.
#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn is_active(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<bool>> {
    sqlx::query_scalar!(
        r#"SELECT deleted_at IS NULL AS "active!" FROM users WHERE id = $1"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The profile of a user who is not deleted.
#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn active_profile(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<User>> {
    sqlx::query_as!(
        User,
        "SELECT id, username, email, first_name, last_name, phone_country_code,
           phone_national_number, account_type, communication_method, country,
           apartment_number, province, street, house, city, zip_code, created_at
         FROM users WHERE id = $1 AND deleted_at IS NULL",
        id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_names(
    conn: &mut PgConnection,
    id: Uuid,
    first_name: &str,
    last_name: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET first_name = $2, last_name = $3, updated_at = now() WHERE id = $1",
        id,
        first_name,
        last_name
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_username(conn: &mut PgConnection, id: Uuid, username: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET username = $2, updated_at = now() WHERE id = $1",
        id,
        username
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_email(conn: &mut PgConnection, id: Uuid, email: &str) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET email = $2, updated_at = now() WHERE id = $1",
        id,
        email
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_phone(
    conn: &mut PgConnection,
    id: Uuid,
    country_code: &str,
    national_number: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET phone_country_code = $2, phone_national_number = $3, updated_at = now()
         WHERE id = $1",
        id,
        country_code,
        national_number
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_address(conn: &mut PgConnection, id: Uuid, address: &Address) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET country = $2, apartment_number = $3, province = $4, street = $5,
           house = $6, city = $7, zip_code = $8, updated_at = now()
         WHERE id = $1",
        id,
        address.country,
        address.apartment_number,
        address.province,
        address.street,
        address.house,
        address.city,
        address.zip_code
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn set_communication_method(
    conn: &mut PgConnection,
    id: Uuid,
    method: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET communication_method = $2, updated_at = now() WHERE id = $1",
        id,
        method
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The active account a username or an e-mail (lower case) names.
#[tracing::instrument(skip_all)]
pub async fn contact_by_login(
    conn: &mut PgConnection,
    login: &str,
) -> sqlx::Result<Option<Contact>> {
    sqlx::query_as!(
        Contact,
        "SELECT id, username, email, phone_country_code, phone_national_number,
           communication_method
         FROM users
         WHERE (lower(username) = $1 OR lower(email) = $1) AND deleted_at IS NULL LIMIT 1",
        login
    )
    .fetch_optional(conn)
    .await
}

/// The active account with this e-mail (lower case).
#[tracing::instrument(skip_all)]
pub async fn contact_by_email(
    conn: &mut PgConnection,
    email: &str,
) -> sqlx::Result<Option<Contact>> {
    sqlx::query_as!(
        Contact,
        "SELECT id, username, email, phone_country_code, phone_national_number,
           communication_method
         FROM users WHERE lower(email) = $1 AND deleted_at IS NULL",
        email
    )
    .fetch_optional(conn)
    .await
}

/// The active account with this phone number.
#[tracing::instrument(skip_all)]
pub async fn contact_by_phone(
    conn: &mut PgConnection,
    country_code: &str,
    national_number: &str,
) -> sqlx::Result<Option<Contact>> {
    sqlx::query_as!(
        Contact,
        "SELECT id, username, email, phone_country_code, phone_national_number,
           communication_method
         FROM users
         WHERE phone_country_code = $1 AND phone_national_number = $2 AND deleted_at IS NULL",
        country_code,
        national_number
    )
    .fetch_optional(conn)
    .await
}

/// The soft delete: the row stays (its username, e-mail and phone stay taken) until the purge.
#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn soft_delete(
    conn: &mut PgConnection,
    id: Uuid,
    reason: &str,
    details: &str,
    recoverable_until: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET deleted_at = now(), delete_reason = $2, delete_details = $3,
           recoverable_until = $4, updated_at = now()
         WHERE id = $1",
        id,
        reason,
        details,
        recoverable_until
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Undoes a soft delete still within its grace period; false when there is none to undo.
#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn restore(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    let restored = sqlx::query!(
        "UPDATE users SET deleted_at = NULL, delete_reason = NULL, delete_details = NULL,
           recoverable_until = NULL, updated_at = now()
         WHERE id = $1 AND deleted_at IS NOT NULL AND recoverable_until > now()",
        id
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(restored == 1)
}

/// Up to 100 deleted accounts whose grace period is over, locked (others' locks are skipped, so
/// replicas purge different ones).
#[tracing::instrument(skip_all)]
pub async fn lock_purge_due(conn: &mut PgConnection) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "SELECT id FROM users WHERE deleted_at IS NOT NULL AND recoverable_until <= now()
         ORDER BY recoverable_until LIMIT 100 FOR UPDATE SKIP LOCKED"
    )
    .fetch_all(conn)
    .await
}

/// Deletes the row; what hangs on it (sessions, history, organizations it owns) goes with it.
#[tracing::instrument(skip_all, fields(user.id = %id))]
pub async fn delete(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM users WHERE id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}
