//! Organizations and their participants: the caller's organization, participants and invites,
//! joining with an invite code (open to anyone), role changes and removal.

use evidentia_common::time::rfc3339;
use evidentia_proto::accounts::v1 as accounts;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::{PhoneNumber, TokenPair},
    area,
};
use crate::{error::ErrorBody, forward::forward};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        organization,
        participants,
        invite,
        revoke_invite | preview_invite,
        join,
        change_role | remove_participant
    ]
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Organization {
    pub id: String,
    pub name: String,
    /// The caller's role: `owner`, `admin` or `member`.
    pub role: String,
    /// RFC 3339.
    pub created_at: String,
}

impl From<accounts::Organization> for Organization {
    fn from(o: accounts::Organization) -> Self {
        Self {
            id: o.id,
            name: o.name,
            role: o.role,
            created_at: rfc3339(o.created_at).unwrap_or_default(),
        }
    }
}

forward! {
/// The caller's organization and role (404 when they belong to none).
#[utoipa::path(get, path = "/api/accounts/organization/", tag = "organizations", security(("bearer" = [])),
    responses((status = 200, body = Organization), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn organization() -> Organization = accounts.get_organization(accounts::GetOrganizationRequest {});
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Participant {
    pub user_id: String,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub role: String,
    /// RFC 3339.
    pub joined_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Invite {
    pub id: String,
    /// `email` or `sms`.
    pub channel: String,
    pub sent_to: String,
    pub role: String,
    /// RFC 3339.
    pub expires_at: String,
    /// RFC 3339.
    pub created_at: String,
}

impl From<accounts::Invite> for Invite {
    fn from(i: accounts::Invite) -> Self {
        Self {
            id: i.id,
            channel: i.channel,
            sent_to: i.sent_to,
            role: i.role,
            expires_at: rfc3339(i.expires_at).unwrap_or_default(),
            created_at: rfc3339(i.created_at).unwrap_or_default(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Participants {
    pub participants: Vec<Participant>,
    /// Open invites; empty for members, who cannot manage them.
    pub invites: Vec<Invite>,
}

impl From<accounts::Participants> for Participants {
    fn from(list: accounts::Participants) -> Self {
        Self {
            participants: list
                .participants
                .into_iter()
                .map(|p| Participant {
                    user_id: p.user_id,
                    username: p.username,
                    first_name: p.first_name,
                    last_name: p.last_name,
                    email: p.email,
                    role: p.role,
                    joined_at: rfc3339(p.joined_at).unwrap_or_default(),
                })
                .collect(),
            invites: list.invites.into_iter().map(Into::into).collect(),
        }
    }
}

forward! {
/// The caller's organization's participants (owner first) and open invites.
#[utoipa::path(get, path = "/api/accounts/organization/participants/", tag = "organizations", security(("bearer" = [])),
    responses((status = 200, body = Participants), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn participants() -> Participants =
    accounts.list_participants(accounts::ListParticipantsRequest {});
}

/// An e-mail or a phone number, and the role (`admin` or `member`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct InviteRequest {
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: Option<String>,
    pub phone_number: Option<PhoneNumber>,
    pub role: String,
}

forward! {
/// Sends an invite code by e-mail or SMS (owner and admin; admins invite members only).
#[utoipa::path(post, path = "/api/accounts/organization/invites/", tag = "organizations", security(("bearer" = [])),
    request_body = InviteRequest,
    responses((status = 201, body = Invite), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)))]
fn invite(body: InviteRequest) -> Created<Invite> =
    accounts.invite_participant(|body| accounts::InviteParticipantRequest {
        email: body.email,
        phone_number: body.phone_number.map(Into::into),
        role: body.role,
    });
}

forward! {
/// Revokes an open invite (owner and admin).
#[utoipa::path(delete, path = "/api/accounts/organization/invites/{id}/", tag = "organizations", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn revoke_invite(path: String) -> NoContent =
    accounts.revoke_invite(|id| accounts::RevokeInviteRequest { id });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvitePreview {
    pub organization_name: String,
    pub role: String,
    /// `email` or `sms`: which address the join form takes from the invite.
    pub channel: String,
    pub email: Option<String>,
    pub phone_number: Option<PhoneNumber>,
    /// RFC 3339.
    pub expires_at: String,
}

impl From<accounts::InvitePreview> for InvitePreview {
    fn from(p: accounts::InvitePreview) -> Self {
        Self {
            organization_name: p.organization_name,
            role: p.role,
            channel: p.channel,
            email: p.email,
            phone_number: p.phone_number.map(Into::into),
            expires_at: rfc3339(p.expires_at).unwrap_or_default(),
        }
    }
}

forward! {
/// What an invite code is for (open to anyone with the code).
#[utoipa::path(get, path = "/api/accounts/organization/invites/{id}/", tag = "organizations",
    params(("id" = String, Path, description = "The invite code")),
    responses((status = 200, body = InvitePreview), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn preview_invite(Client, path: String) -> InvitePreview =
    accounts.preview_invite(|code| accounts::PreviewInviteRequest { code });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct JoinOrganizationRequest {
    pub code: String,
    #[schema(min_length = 2, max_length = 20, pattern = r"^[A-Za-z0-9@+._-]+$")]
    pub username: String,
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: String,
    pub phone_number: PhoneNumber,
    #[schema(min_length = 8, max_length = 32)]
    pub password: String,
    #[serde(default)]
    #[schema(max_length = 150)]
    pub first_name: String,
    #[serde(default)]
    #[schema(max_length = 150)]
    pub last_name: String,
    /// Needed when the invite came by SMS: the sign-up code verification of `email`.
    #[serde(default)]
    pub verification_token: String,
}

forward! {
/// Creates a participant's account from an invite code and signs it in.
#[utoipa::path(post, path = "/api/accounts/organization/join/", tag = "organizations",
    request_body = JoinOrganizationRequest,
    responses((status = 201, body = TokenPair), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn join(Client, body: JoinOrganizationRequest) -> Created<TokenPair> =
    accounts.join_organization(|body| accounts::JoinOrganizationRequest {
        code: body.code,
        username: body.username,
        email: body.email,
        phone_number: Some(body.phone_number.into()),
        password: body.password,
        first_name: body.first_name,
        last_name: body.last_name,
        verification_token: body.verification_token,
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RoleChange {
    /// `admin` or `member`.
    pub role: String,
}

forward! {
/// Changes a participant's role (owner only).
#[utoipa::path(patch, path = "/api/accounts/organization/participants/{user_id}/", tag = "organizations", security(("bearer" = [])),
    params(("user_id" = String, Path)),
    request_body = RoleChange,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn change_role(path: String, body: RoleChange) -> NoContent = accounts
    .change_participant_role(|user_id, body| accounts::ChangeParticipantRoleRequest {
        user_id,
        role: body.role,
    });
}

forward! {
/// Removes a participant (owner: anyone but themselves; admin: members); their sessions end.
#[utoipa::path(delete, path = "/api/accounts/organization/participants/{user_id}/", tag = "organizations", security(("bearer" = [])),
    params(("user_id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn remove_participant(path: String) -> NoContent =
    accounts.remove_participant(|user_id| accounts::RemoveParticipantRequest { user_id });
}
