//! `organization_invites`: a code sent to an e-mail or a phone, for a role, until it is
//! accepted, revoked or expires.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug)]
pub struct Invite {
    pub id: Uuid,
    pub channel: String,
    pub email: Option<String>,
    pub phone_country_code: Option<String>,
    pub phone_national_number: Option<String>,
    pub role: String,
    pub expires_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug)]
pub struct NewInvite<'a> {
    pub id: Uuid,
    pub organization_id: Uuid,
    pub code: &'a str,
    pub channel: &'a str,
    pub email: Option<&'a str>,
    pub phone_country_code: Option<&'a str>,
    pub phone_national_number: Option<&'a str>,
    pub role: &'a str,
    pub invited_by: Uuid,
    pub expires_at: DateTime<Utc>,
}

/// An invite found by its code, with its organization's name and whether it can still be used.
#[derive(Debug)]
pub struct CodedInvite {
    pub id: Uuid,
    pub organization_id: Uuid,
    pub organization_name: String,
    pub channel: String,
    pub email: Option<String>,
    pub phone_country_code: Option<String>,
    pub phone_national_number: Option<String>,
    pub role: String,
    pub expires_at: DateTime<Utc>,
    pub accepted_at: Option<DateTime<Utc>>,
    /// The account the invite made, once accepted.
    pub accepted_by: Option<Uuid>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[tracing::instrument(skip_all, fields(invite.id = %invite.id))]
pub async fn insert(conn: &mut PgConnection, invite: &NewInvite<'_>) -> sqlx::Result<Invite> {
    sqlx::query_as!(
        Invite,
        "INSERT INTO organization_invites (id, organization_id, code, channel, email,
           phone_country_code, phone_national_number, role, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING id, channel, email, phone_country_code, phone_national_number, role,
           expires_at, created_at",
        invite.id,
        invite.organization_id,
        invite.code,
        invite.channel,
        invite.email,
        invite.phone_country_code,
        invite.phone_national_number,
        invite.role,
        invite.invited_by,
        invite.expires_at
    )
    .fetch_one(conn)
    .await
}

/// The organization's invites that can still be accepted, newest first.
#[tracing::instrument(skip_all, fields(organization.id = %organization_id))]
pub async fn open(conn: &mut PgConnection, organization_id: Uuid) -> sqlx::Result<Vec<Invite>> {
    sqlx::query_as!(
        Invite,
        "SELECT id, channel, email, phone_country_code, phone_national_number, role,
           expires_at, created_at
         FROM organization_invites
         WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL
           AND expires_at > now()
         ORDER BY created_at DESC",
        organization_id
    )
    .fetch_all(conn)
    .await
}

/// Revokes an invite of the organization that is neither accepted nor revoked; false when
/// there is none.
#[tracing::instrument(skip_all, fields(invite.id = %id))]
pub async fn revoke(
    conn: &mut PgConnection,
    id: Uuid,
    organization_id: Uuid,
) -> sqlx::Result<bool> {
    let revoked = sqlx::query!(
        "UPDATE organization_invites SET revoked_at = now()
         WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL",
        id,
        organization_id
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(revoked > 0)
}

#[tracing::instrument(skip_all)]
pub async fn by_code(conn: &mut PgConnection, code: &str) -> sqlx::Result<Option<CodedInvite>> {
    sqlx::query_as!(
        CodedInvite,
        "SELECT i.id, i.organization_id, o.name AS organization_name, i.channel, i.email,
           i.phone_country_code, i.phone_national_number, i.role, i.expires_at, i.accepted_at,
           i.accepted_by, i.revoked_at
         FROM organization_invites i JOIN organizations o ON o.id = i.organization_id
         WHERE i.code = $1",
        code
    )
    .fetch_optional(conn)
    .await
}

/// As [`by_code`], with the invite locked until the transaction ends (joining spends it).
#[tracing::instrument(skip_all)]
pub async fn lock_by_code(
    conn: &mut PgConnection,
    code: &str,
) -> sqlx::Result<Option<CodedInvite>> {
    sqlx::query_as!(
        CodedInvite,
        "SELECT i.id, i.organization_id, o.name AS organization_name, i.channel, i.email,
           i.phone_country_code, i.phone_national_number, i.role, i.expires_at, i.accepted_at,
           i.accepted_by, i.revoked_at
         FROM organization_invites i JOIN organizations o ON o.id = i.organization_id
         WHERE i.code = $1 FOR UPDATE OF i",
        code
    )
    .fetch_optional(conn)
    .await
}

/// Revokes the open invites, of any organization, to an address that now has an account (each
/// could only fail: an address with an account cannot join).
#[tracing::instrument(skip_all)]
pub async fn close_open_to(
    conn: &mut PgConnection,
    email: &str,
    phone_country_code: &str,
    phone_national_number: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE organization_invites SET revoked_at = now()
         WHERE accepted_at IS NULL AND revoked_at IS NULL
           AND (lower(email) = lower($1)
                OR (phone_country_code = $2 AND phone_national_number = $3))",
        email,
        phone_country_code,
        phone_national_number
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(invite.id = %id, user.id = %user_id))]
pub async fn accept(conn: &mut PgConnection, id: Uuid, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE organization_invites SET accepted_at = now(), accepted_by = $2 WHERE id = $1",
        id,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
