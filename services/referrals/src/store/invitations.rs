//! `invitations`: what a user sent with their referral link, and how each answered.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// An invitation with what became of it: `invited`, or the friend's referral's state once they
/// signed up with the inviter's code from that address.
#[derive(Debug, Clone)]
pub struct InvitationRow {
    pub id: Uuid,
    pub channel: String,
    pub address: String,
    pub name: String,
    pub sends: i32,
    pub created_at: DateTime<Utc>,
    pub last_sent_at: DateTime<Utc>,
    pub status: String,
}

pub struct NewInvitation<'a> {
    pub id: Uuid,
    pub referrer_id: Uuid,
    pub channel: &'a str,
    pub address: &'a str,
    pub name: &'a str,
}

/// Inserts the invitation; `false` when this inviter already invited the address.
#[tracing::instrument(skip_all, fields(invitation.id = %new.id))]
pub async fn insert(conn: &mut PgConnection, new: &NewInvitation<'_>) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT INTO invitations (id, referrer_id, channel, address, name)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT invitations_once_per_address DO NOTHING",
        new.id,
        new.referrer_id,
        new.channel,
        new.address,
        new.name
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The inviter's invitations (at most `limit`; only invitation `only` when given), in the order
/// asked for: `newest`, `oldest`, `name` (the name given, else the address) or `status`
/// (rewarded, then signed up, then invited), ties newest first.
#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn list(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    sorting: &str,
    limit: i64,
    only: Option<Uuid>,
) -> sqlx::Result<Vec<InvitationRow>> {
    sqlx::query_as!(
        InvitationRow,
        r#"SELECT i.id, i.channel, i.address, i.name, i.sends, i.created_at, i.last_sent_at,
                  COALESCE(r.state, 'invited') AS "status!"
           FROM invitations i
           LEFT JOIN LATERAL (
               SELECT CASE WHEN state = 'rewarded' THEN 'rewarded' ELSE 'signed_up' END AS state
               FROM referrals
               WHERE referrer_id = i.referrer_id
                 AND (email = i.address OR (phone <> '' AND phone = i.address))
               LIMIT 1
           ) r ON true
           WHERE i.referrer_id = $1 AND ($4::uuid IS NULL OR i.id = $4)
           ORDER BY
               CASE WHEN $2 = 'oldest' THEN i.created_at END ASC,
               CASE WHEN $2 = 'name' THEN lower(COALESCE(NULLIF(i.name, ''), i.address)) END ASC,
               CASE WHEN $2 = 'status' THEN
                   CASE COALESCE(r.state, 'invited') WHEN 'rewarded' THEN 0 WHEN 'signed_up' THEN 1 ELSE 2 END
               END ASC,
               i.created_at DESC,
               i.id DESC
           LIMIT $3"#,
        referrer_id,
        sorting,
        limit,
        only
    )
    .fetch_all(conn)
    .await
}

/// What a resend needs of an invitation: where it goes and how often it went.
#[derive(Debug, Clone)]
pub struct Sending {
    pub channel: String,
    pub address: String,
    pub sends: i32,
    pub last_sent_at: DateTime<Utc>,
}

/// One of the inviter's invitations, locked for a resend; another user's is `None`.
#[tracing::instrument(skip_all, fields(invitation.id = %id))]
pub async fn lock_owned(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<Sending>> {
    sqlx::query_as!(
        Sending,
        "SELECT channel, address, sends, last_sent_at
         FROM invitations WHERE id = $1 AND referrer_id = $2 FOR UPDATE",
        id,
        referrer_id
    )
    .fetch_optional(conn)
    .await
}

/// One of the inviter's invitations with its status; another user's is `None`.
#[tracing::instrument(skip_all, fields(invitation.id = %id))]
pub async fn find_owned(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    id: Uuid,
) -> sqlx::Result<Option<InvitationRow>> {
    let rows = list(conn, referrer_id, "newest", 1, Some(id)).await?;
    Ok(rows.into_iter().next())
}

#[tracing::instrument(skip_all, fields(invitation.id = %id))]
pub async fn mark_sent(conn: &mut PgConnection, id: Uuid, at: DateTime<Utc>) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE invitations SET sends = sends + 1, last_sent_at = $2 WHERE id = $1",
        id,
        at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// `true` when the inviter's invitation was there to delete.
#[tracing::instrument(skip_all, fields(invitation.id = %id))]
pub async fn delete_owned(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    id: Uuid,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "DELETE FROM invitations WHERE id = $1 AND referrer_id = $2",
        id,
        referrer_id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Every invitation the user sent (their account was deleted).
#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn delete_all(conn: &mut PgConnection, referrer_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM invitations WHERE referrer_id = $1",
        referrer_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// How many invitations the user sent (new ones and resends) since `since`, and when the oldest
/// of those went: the day's limit frees up a day after it.
#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn sent_since(
    conn: &mut PgConnection,
    referrer_id: Uuid,
    since: DateTime<Utc>,
) -> sqlx::Result<(i64, Option<DateTime<Utc>>)> {
    let row = sqlx::query!(
        r#"SELECT count(*) AS "sent!", min(last_sent_at) AS oldest
           FROM invitations WHERE referrer_id = $1 AND last_sent_at > $2"#,
        referrer_id,
        since
    )
    .fetch_one(conn)
    .await?;
    Ok((row.sent, row.oldest))
}

/// The user's invitation count.
#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn count(conn: &mut PgConnection, referrer_id: Uuid) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM invitations WHERE referrer_id = $1"#,
        referrer_id
    )
    .fetch_one(conn)
    .await
}
