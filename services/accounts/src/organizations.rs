//! Organizations: one owner who signs it up, participants who join with an invite code sent by
//! e-mail or SMS, and roles. The permission matrix is in docs/decisions.md:
//! owner: invite (admin or member), revoke invites, change roles, remove anyone but themselves;
//! admin: invite members, revoke invites, remove members; member: see the participants.

use chrono::{DateTime, Utc};
use evidentia_common::errors::FieldError;
use rand::Rng;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    codes::{self, Channel, Destination, Purpose},
    domain::{Email, PhoneNumber},
    error::AccountsError,
    history::{self, Action, Seen},
    state::AppState,
    tokens::{self, TokenPair},
    users::{self, NewAccount},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Owner,
    Admin,
    Member,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Admin => "admin",
            Self::Member => "member",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "owner" => Some(Self::Owner),
            "admin" => Some(Self::Admin),
            "member" => Some(Self::Member),
            _ => None,
        }
    }

    /// Which roles this role may invite.
    pub fn may_invite(self, role: Role) -> bool {
        match self {
            Self::Owner => matches!(role, Role::Admin | Role::Member),
            Self::Admin => role == Role::Member,
            Self::Member => false,
        }
    }

    pub fn may_revoke_invites(self) -> bool {
        matches!(self, Self::Owner | Self::Admin)
    }

    pub fn may_see_invites(self) -> bool {
        self.may_revoke_invites()
    }

    pub fn may_remove(self, target: Role) -> bool {
        match self {
            Self::Owner => target != Role::Owner,
            Self::Admin => target == Role::Member,
            Self::Member => false,
        }
    }

    pub fn may_change_roles(self) -> bool {
        self == Self::Owner
    }
}

/// An invite's role, or a participant's new one: admin or member (there is one owner).
pub fn invite_role(value: &str) -> Result<Role, FieldError> {
    match Role::parse(value) {
        Some(role @ (Role::Admin | Role::Member)) => Ok(role),
        _ => Err(FieldError::new("role", "Choose admin or member.")),
    }
}

pub const INVITE_NOT_FOUND: &str = "Invite not found.";
pub const PARTICIPANT_NOT_FOUND: &str = "Participant not found.";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Membership {
    pub organization_id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub role: String,
    pub created_at: DateTime<Utc>,
}

impl Membership {
    pub fn role(&self) -> Role {
        Role::parse(&self.role).unwrap_or(Role::Member)
    }
}

/// The organization of `user_id` and their role in it, if any.
pub async fn membership(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Option<Membership>, AccountsError> {
    Ok(sqlx::query_as(
        "SELECT o.id AS organization_id, o.owner_id, o.name, m.role, o.created_at FROM organization_members m \
         JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?)
}

async fn require_membership(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Membership, AccountsError> {
    users::require_active(conn, user_id).await?;
    membership(conn, user_id)
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
    sqlx::query("INSERT INTO organizations (id, name, owner_id) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(name)
        .bind(owner_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'owner')")
        .bind(id)
        .bind(owner_id)
        .execute(&mut *conn)
        .await?;
    history::record(conn, owner_id, Action::OrganizationCreated, seen).await?;
    Ok(id)
}

pub async fn get(conn: &mut PgConnection, user_id: Uuid) -> Result<Membership, AccountsError> {
    require_membership(conn, user_id).await
}

#[derive(Debug, sqlx::FromRow)]
pub struct Participant {
    pub user_id: Uuid,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: String,
    pub joined_at: DateTime<Utc>,
}

#[derive(Debug, sqlx::FromRow)]
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

impl Invite {
    /// The invited address as the participants list shows it (in full: the inviter typed it).
    pub fn sent_to(&self) -> String {
        match (
            &self.email,
            &self.phone_country_code,
            &self.phone_national_number,
        ) {
            (Some(email), _, _) => email.clone(),
            (None, Some(cc), Some(nn)) => format!("{cc} {nn}"),
            _ => String::new(),
        }
    }
}

const INVITE_COLUMNS: &str =
    "id, channel, email, phone_country_code, phone_national_number, role, expires_at, created_at";

/// The organization's participants, and its open invites for those who may manage them.
pub async fn participants(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<(Vec<Participant>, Vec<Invite>), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    let people = sqlx::query_as(
        "SELECT u.id AS user_id, u.username, u.first_name, u.last_name, u.email, m.role, m.joined_at \
         FROM organization_members m JOIN users u ON u.id = m.user_id \
         WHERE m.organization_id = $1 AND u.deleted_at IS NULL \
         ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, m.joined_at",
    )
    .bind(me.organization_id)
    .fetch_all(&mut *conn)
    .await?;
    let invites = if me.role().may_see_invites() {
        sqlx::query_as(&format!(
            "SELECT {INVITE_COLUMNS} FROM organization_invites WHERE organization_id = $1 \
             AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC"
        ))
        .bind(me.organization_id)
        .fetch_all(&mut *conn)
        .await?
    } else {
        Vec::new()
    };
    Ok((people, invites))
}

const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Eight characters without the look-alikes 0/O and 1/I.
fn new_code() -> String {
    let mut rng = rand::rng();
    (0..8)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

pub fn normalize_code(code: &str) -> String {
    code.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_uppercase()
}

/// Who is invited: an e-mail or a phone number.
pub enum Invitee {
    Email(Email),
    Phone(PhoneNumber),
}

/// Invites someone; the code goes to them by e-mail or SMS and expires.
pub async fn invite(
    state: &AppState,
    user_id: Uuid,
    invitee: Invitee,
    role: Role,
    seen: &Seen,
) -> Result<Invite, AccountsError> {
    let mut conn = state.pool.acquire().await?;
    let me = require_membership(&mut conn, user_id).await?;
    if !me.role().may_invite(role) {
        return Err(AccountsError::Forbidden);
    }
    // Joining creates an account, so the address must not have one yet.
    let (to, email, phone) = match &invitee {
        Invitee::Email(email) => {
            if users::email_taken(&mut conn, email, None).await? {
                return Err(AccountsError::field("email", users::EMAIL_TAKEN));
            }
            (
                Destination::email(email.as_str()),
                Some(email.as_str().to_owned()),
                None,
            )
        }
        Invitee::Phone(phone) => {
            if users::phone_taken(&mut conn, phone, None).await? {
                return Err(AccountsError::field("phone_number", users::PHONE_TAKEN));
            }
            (
                Destination::phone(&phone.country_code, &phone.national_number),
                None,
                Some(phone.clone()),
            )
        }
    };
    codes::limit_sends(state, &to, &seen.ip).await?;
    let code = new_code();
    let id = Uuid::now_v7();
    let expires_at = Utc::now() + chrono::Duration::seconds(state.config.invite_ttl_seconds);
    let mut tx = state.pool.begin().await?;
    let invite: Invite = sqlx::query_as(&format!(
        "INSERT INTO organization_invites (id, organization_id, code, channel, email, phone_country_code, \
         phone_national_number, role, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         RETURNING {INVITE_COLUMNS}"
    ))
    .bind(id)
    .bind(me.organization_id)
    .bind(&code)
    .bind(to.channel.as_str())
    .bind(email)
    .bind(phone.as_ref().map(|p| p.country_code.clone()))
    .bind(phone.as_ref().map(|p| p.national_number.clone()))
    .bind(role.as_str())
    .bind(user_id)
    .bind(expires_at)
    .fetch_one(&mut *tx)
    .await?;
    history::record(&mut tx, user_id, Action::ParticipantInvited, seen).await?;
    let link = format!(
        "{}/join-organization/{code}",
        state.config.public_url.trim_end_matches('/')
    );
    let article = if role == Role::Admin {
        "an admin"
    } else {
        "a member"
    };
    let text = format!(
        "You are invited to join {} on Evidentia as {article}.\n\nJoin with the code {code}: {link}\n\nThe invite expires on {}.",
        me.name,
        expires_at.format("%b %-d, %Y")
    );
    // Sent before commit: an invite that could not be sent is not left behind.
    codes::deliver(state, &to, &format!("Join {} on Evidentia", me.name), &text).await?;
    tx.commit().await?;
    Ok(invite)
}

pub async fn revoke_invite(
    conn: &mut PgConnection,
    user_id: Uuid,
    invite_id: Uuid,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    if !me.role().may_revoke_invites() {
        return Err(AccountsError::Forbidden);
    }
    let revoked = sqlx::query(
        "UPDATE organization_invites SET revoked_at = now() WHERE id = $1 AND organization_id = $2 \
         AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(invite_id)
    .bind(me.organization_id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if revoked == 0 {
        return Err(AccountsError::NotFound(INVITE_NOT_FOUND));
    }
    history::record(conn, user_id, Action::InviteRevoked, seen).await
}

#[derive(Debug, sqlx::FromRow)]
pub struct OpenInvite {
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
    pub revoked_at: Option<DateTime<Utc>>,
}

pub const INVITE_NOT_VALID: &str = "This invite code is not valid.";

/// The invite a code names, if it can still be used.
pub async fn open_invite(
    conn: &mut PgConnection,
    code: &str,
    lock: bool,
) -> Result<OpenInvite, AccountsError> {
    let code = normalize_code(code);
    if code.is_empty() {
        return Err(AccountsError::NotFound(INVITE_NOT_VALID));
    }
    let invite: OpenInvite = sqlx::query_as(&format!(
        "SELECT i.id, i.organization_id, o.name AS organization_name, i.channel, i.email, i.phone_country_code, \
         i.phone_national_number, i.role, i.expires_at, i.accepted_at, i.revoked_at \
         FROM organization_invites i JOIN organizations o ON o.id = i.organization_id WHERE i.code = $1{}",
        if lock { " FOR UPDATE OF i" } else { "" }
    ))
    .bind(&code)
    .fetch_optional(conn)
    .await?
    .ok_or(AccountsError::NotFound(INVITE_NOT_VALID))?;
    if invite.accepted_at.is_some()
        || invite.revoked_at.is_some()
        || invite.expires_at <= Utc::now()
    {
        return Err(AccountsError::InviteExpired);
    }
    Ok(invite)
}

/// Creates the participant's account from an invite and signs it in. The invite's own address
/// is proven by the code; an e-mail that the invite did not go to is proven with a sign-up code.
pub async fn join(
    state: &AppState,
    code: &str,
    account: NewAccount,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let password_hash = users::hash_password(account.password.clone()).await?;
    let mut tx = state.pool.begin().await?;
    let invite = open_invite(&mut tx, code, true).await?;
    match Channel::parse(&invite.channel) {
        Some(Channel::Email) => {
            if invite.email.as_deref() != Some(account.email.as_str()) {
                return Err(AccountsError::field(
                    "email",
                    "Use the email address the invite was sent to.",
                ));
            }
        }
        _ => {
            if invite.phone_country_code.as_deref() != Some(account.phone.country_code.as_str())
                || invite.phone_national_number.as_deref()
                    != Some(account.phone.national_number.as_str())
            {
                return Err(AccountsError::field(
                    "phone_number",
                    "Use the phone number the invite was sent to.",
                ));
            }
            codes::spend_verification(
                &mut tx,
                &account.verification_token,
                account.email.as_str(),
                Purpose::SignUp,
            )
            .await?;
        }
    }
    let id = users::insert(&mut tx, &account, &password_hash, "individual", seen).await?;
    sqlx::query(
        "INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3)",
    )
    .bind(invite.organization_id)
    .bind(id)
    .bind(&invite.role)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE organization_invites SET accepted_at = now(), accepted_by = $2 WHERE id = $1",
    )
    .bind(invite.id)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    history::record(&mut tx, id, Action::OrganizationJoined, seen).await?;
    let pair = tokens::issue(&mut tx, &state.config, id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %id, organization.id = %invite.organization_id, "participant joined");
    Ok(pair)
}

async fn target_role(
    conn: &mut PgConnection,
    organization_id: Uuid,
    target: Uuid,
) -> Result<Role, AccountsError> {
    let role: String = sqlx::query_scalar(
        "SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2 FOR UPDATE",
    )
    .bind(organization_id)
    .bind(target)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(AccountsError::NotFound(PARTICIPANT_NOT_FOUND))?;
    Ok(Role::parse(&role).unwrap_or(Role::Member))
}

pub async fn change_role(
    conn: &mut PgConnection,
    user_id: Uuid,
    target: Uuid,
    role: Role,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    if !me.role().may_change_roles() {
        return Err(AccountsError::Forbidden);
    }
    let current = target_role(conn, me.organization_id, target).await?;
    if current == Role::Owner || target == user_id {
        return Err(AccountsError::Forbidden);
    }
    sqlx::query(
        "UPDATE organization_members SET role = $3 WHERE organization_id = $1 AND user_id = $2",
    )
    .bind(me.organization_id)
    .bind(target)
    .bind(role.as_str())
    .execute(&mut *conn)
    .await?;
    history::record(conn, user_id, Action::ParticipantRoleChanged, seen).await
}

/// Removes a participant: their membership ends with their sessions; their account stays, as an
/// individual one.
pub async fn remove(
    conn: &mut PgConnection,
    state: &AppState,
    user_id: Uuid,
    target: Uuid,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let me = require_membership(conn, user_id).await?;
    if target == user_id {
        return Err(AccountsError::Forbidden);
    }
    let role = target_role(conn, me.organization_id, target).await?;
    if !me.role().may_remove(role) {
        return Err(AccountsError::Forbidden);
    }
    sqlx::query("DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2")
        .bind(me.organization_id)
        .bind(target)
        .execute(&mut *conn)
        .await?;
    tokens::revoke_all(conn, &state.config, &state.redis, target).await?;
    history::record(conn, user_id, Action::ParticipantRemoved, seen).await?;
    history::record(conn, target, Action::ParticipantRemoved, seen).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_role_matrix() {
        use Role::*;
        assert!(Owner.may_invite(Admin) && Owner.may_invite(Member) && !Owner.may_invite(Owner));
        assert!(!Admin.may_invite(Admin) && Admin.may_invite(Member));
        assert!(!Member.may_invite(Member));
        assert!(Owner.may_remove(Admin) && Owner.may_remove(Member) && !Owner.may_remove(Owner));
        assert!(!Admin.may_remove(Admin) && Admin.may_remove(Member));
        assert!(!Member.may_remove(Member));
        assert!(Owner.may_change_roles() && !Admin.may_change_roles());
        assert!(Admin.may_see_invites() && !Member.may_see_invites());
    }

    #[test]
    fn codes_avoid_look_alikes_and_normalize() {
        let code = new_code();
        assert_eq!(code.len(), 8);
        assert!(code.chars().all(|c| !"01OI".contains(c)));
        assert_eq!(normalize_code(" abcd-2345 "), "ABCD2345");
    }
}
