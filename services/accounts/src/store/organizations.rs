//! `organizations` and `organization_members` (one organization per user, with a role).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// A user's organization and their role in it.
#[derive(Debug, Clone)]
pub struct Membership {
    pub organization_id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub role: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug)]
pub struct Participant {
    pub user_id: Uuid,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: String,
    pub joined_at: DateTime<Utc>,
}

#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn membership(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> sqlx::Result<Option<Membership>> {
    sqlx::query_as!(
        Membership,
        "SELECT o.id AS organization_id, o.owner_id, o.name, m.role, o.created_at
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
         WHERE m.user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(organization.id = %id))]
pub async fn insert(
    conn: &mut PgConnection,
    id: Uuid,
    name: &str,
    owner_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO organizations (id, name, owner_id) VALUES ($1, $2, $3)",
        id,
        name,
        owner_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(organization.id = %organization_id, user.id = %user_id))]
pub async fn add_member(
    conn: &mut PgConnection,
    organization_id: Uuid,
    user_id: Uuid,
    role: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)",
        organization_id,
        user_id,
        role
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The organization's participants whose accounts are not deleted: the owner, then admins,
/// then members, each by when they joined.
#[tracing::instrument(skip_all, fields(organization.id = %organization_id))]
pub async fn participants(
    conn: &mut PgConnection,
    organization_id: Uuid,
) -> sqlx::Result<Vec<Participant>> {
    sqlx::query_as!(
        Participant,
        "SELECT u.id AS user_id, u.username, u.first_name, u.last_name, u.email, m.role,
           m.joined_at
         FROM organization_members m JOIN users u ON u.id = m.user_id
         WHERE m.organization_id = $1 AND u.deleted_at IS NULL
         ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.joined_at",
        organization_id
    )
    .fetch_all(conn)
    .await
}

/// A member's role, locked until the transaction ends; `None` when they are not a member.
#[tracing::instrument(skip_all, fields(organization.id = %organization_id, user.id = %user_id))]
pub async fn lock_role(
    conn: &mut PgConnection,
    organization_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT role FROM organization_members
         WHERE organization_id = $1 AND user_id = $2 FOR UPDATE",
        organization_id,
        user_id
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all, fields(organization.id = %organization_id, user.id = %user_id))]
pub async fn set_role(
    conn: &mut PgConnection,
    organization_id: Uuid,
    user_id: Uuid,
    role: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE organization_members SET role = $3 WHERE organization_id = $1 AND user_id = $2",
        organization_id,
        user_id,
        role
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(organization.id = %organization_id, user.id = %user_id))]
pub async fn remove_member(
    conn: &mut PgConnection,
    organization_id: Uuid,
    user_id: Uuid,
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2",
        organization_id,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
