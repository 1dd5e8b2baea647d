//! Organizations: one owner who signs it up, participants who join with an invite (see
//! `invites`), and roles, checked against the permission matrix of `domain::organizations::Role`.

use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{history, sessions},
    config::SessionSettings,
    domain::{
        Action, Seen,
        organizations::{INVITE_NOT_FOUND, PARTICIPANT_NOT_FOUND, Role},
    },
    error::AccountsError,
    store::{
        invites::{self, Invite},
        organizations::{self, Membership, Participant},
    },
};

/// The caller's organization, when they are active and belong to one.
pub async fn require_membership(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Membership, AccountsError> {
    sessions::require_active(conn, user_id).await?;
    organizations::membership(conn, user_id)
        .await?
        .ok_or(AccountsError::NoOrganization)
}

/// Creates an organization owned by `owner_id` (in the sign-up's transaction).
pub async fn found(
    conn: &mut PgConnection,
    owner_id: Uuid,
    name: &str,
    seen: &Seen,
) -> Result<Uuid, AccountsError> {
    let id = Uuid::now_v7();
    organizations::insert(conn, id, name, owner_id).await?;
    organizations::add_member(conn, id, owner_id, Role::Owner.as_str()).await?;
    history::record(conn, owner_id, Action::OrganizationCreated, seen).await?;
    Ok(id)
}

pub async fn get(conn: &mut PgConnection, user_id: Uuid) -> Result<Membership, AccountsError> {
    require_membership(conn, user_id).await
}

/// The organization's participants, and its open invites for those who may manage them.
pub async fn participants(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<(Vec<Participant>, Vec<Invite>), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    let people = organizations::participants(conn, me.organization_id).await?;
    let invites = if Role::stored(&me.role).may_see_invites() {
        invites::open(conn, me.organization_id).await?
    } else {
        Vec::new()
    };
    Ok((people, invites))
}

pub async fn revoke_invite(
    conn: &mut PgConnection,
    user_id: Uuid,
    invite_id: Uuid,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    if !Role::stored(&me.role).may_revoke_invites() {
        return Err(AccountsError::Forbidden);
    }
    if !invites::revoke(conn, invite_id, me.organization_id).await? {
        return Err(AccountsError::NotFound(INVITE_NOT_FOUND));
    }
    history::record(conn, user_id, Action::InviteRevoked, seen).await
}

/// The role of a participant of the organization, locked for the change that follows.
async fn target_role(
    conn: &mut PgConnection,
    organization_id: Uuid,
    target: Uuid,
) -> Result<Role, AccountsError> {
    let role = organizations::lock_role(conn, organization_id, target)
        .await?
        .ok_or(AccountsError::NotFound(PARTICIPANT_NOT_FOUND))?;
    Ok(Role::stored(&role))
}

pub async fn change_role(
    conn: &mut PgConnection,
    user_id: Uuid,
    target: Uuid,
    role: Role,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    if !Role::stored(&me.role).may_change_roles() {
        return Err(AccountsError::Forbidden);
    }
    let current = target_role(conn, me.organization_id, target).await?;
    if current == Role::Owner || target == user_id {
        return Err(AccountsError::Forbidden);
    }
    organizations::set_role(conn, me.organization_id, target, role.as_str()).await?;
    history::record(conn, user_id, Action::ParticipantRoleChanged, seen).await
}

/// Removes a participant: their membership ends with their sessions; their account stays, as an
/// individual one.
#[tracing::instrument(skip_all)]
pub async fn remove(
    pool: &PgPool,
    redis: &ConnectionManager,
    settings: &SessionSettings,
    user_id: Uuid,
    target: Uuid,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let mut tx = pool.begin().await?;
    let me = require_membership(&mut tx, user_id).await?;
    if target == user_id {
        return Err(AccountsError::Forbidden);
    }
    let role = target_role(&mut tx, me.organization_id, target).await?;
    if !Role::stored(&me.role).may_remove(role) {
        return Err(AccountsError::Forbidden);
    }
    organizations::remove_member(&mut tx, me.organization_id, target).await?;
    sessions::end_all(&mut tx, settings, redis, target).await?;
    history::record(&mut tx, user_id, Action::ParticipantRemoved, seen).await?;
    history::record(&mut tx, target, Action::ParticipantRemoved, seen).await?;
    tx.commit().await?;
    Ok(())
}
