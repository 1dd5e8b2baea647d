//! Organization capture, for an organization's participants: capture templates (ordered steps),
//! folders made from them, the triage of anonymous contributions, and contribution links. These
//! calls are ours to design (spec section 7 names only the contributor's); docs/decisions.md
//! "Organization capture" records the rules and the role matrix.

use axum::extract::State;
use evidentia_common::time::rfc3339;
use evidentia_proto::{accounts::v1 as accounts, evidence::v1 as evidence, sharing::v1 as sharing};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use super::{
    AppState,
    accounts::PhoneNumber,
    area,
    evidence::{Folder, Item},
    sharing::{RecipientInput, phone_pb},
};
use crate::{
    auth::User,
    error::{ApiError, ApiResult, ErrorBody},
    extract::ApiJson,
    forward::{Created, Reply, forward, lists},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        list_capture_templates,
        create_capture_template,
        get_capture_template,
        update_capture_template,
        archive_capture_template,
        list_organization_folders,
        create_organization_folder,
        get_organization_folder,
        review_contribution,
        create_contribution_link,
        list_contribution_links,
        revoke_contribution_link
    ]
}

/// What a step accepts.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MediaKind {
    Image,
    Video,
    Audio,
}

impl MediaKind {
    fn from_pb(value: i32) -> Option<Self> {
        match evidence::MediaType::try_from(value) {
            Ok(evidence::MediaType::Image) => Some(Self::Image),
            Ok(evidence::MediaType::Video) => Some(Self::Video),
            Ok(evidence::MediaType::Audio) => Some(Self::Audio),
            _ => None,
        }
    }

    fn to_pb(self) -> i32 {
        let media = match self {
            Self::Image => evidence::MediaType::Image,
            Self::Video => evidence::MediaType::Video,
            Self::Audio => evidence::MediaType::Audio,
        };
        media as i32
    }
}

fn kinds(values: &[i32]) -> Vec<MediaKind> {
    values
        .iter()
        .filter_map(|v| MediaKind::from_pb(*v))
        .collect()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateStep {
    pub id: String,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaKind>,
    pub min_files: i32,
    pub max_files: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CaptureTemplate {
    pub id: String,
    pub name: String,
    pub description: String,
    pub archived: bool,
    pub steps: Vec<TemplateStep>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
}

impl From<evidence::Template> for CaptureTemplate {
    fn from(t: evidence::Template) -> Self {
        Self {
            id: t.id,
            name: t.name,
            description: t.description,
            archived: t.archived,
            steps: t
                .steps
                .into_iter()
                .map(|s| TemplateStep {
                    media_types: kinds(&s.media_types),
                    id: s.id,
                    name: s.name,
                    instructions: s.instructions,
                    min_files: s.min_files,
                    max_files: s.max_files,
                })
                .collect(),
            created_at: rfc3339(t.created_at),
            updated_at: rfc3339(t.updated_at),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StepInput {
    /// A step of the template being edited keeps its id; a new one has none.
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub id: Option<String>,
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 500, required = false)]
    pub instructions: String,
    #[schema(min_items = 1, max_items = 3)]
    pub media_types: Vec<MediaKind>,
    #[schema(minimum = 0, maximum = 20)]
    pub min_files: i32,
    #[schema(minimum = 1, maximum = 20)]
    pub max_files: i32,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TemplateRequest {
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 500, required = false)]
    pub description: String,
    /// In their order; 1 to 20.
    #[schema(min_items = 1, max_items = 20)]
    pub steps: Vec<StepInput>,
}

impl From<TemplateRequest> for evidence::TemplateInput {
    fn from(t: TemplateRequest) -> Self {
        Self {
            name: t.name,
            description: t.description,
            steps: t
                .steps
                .into_iter()
                .map(|s| evidence::TemplateStep {
                    id: s.id.unwrap_or_default(),
                    name: s.name,
                    instructions: s.instructions,
                    media_types: s.media_types.into_iter().map(MediaKind::to_pb).collect(),
                    min_files: s.min_files,
                    max_files: s.max_files,
                })
                .collect(),
        }
    }
}

lists! {
CaptureTemplates from evidence::ListTemplatesResponse {
    templates: CaptureTemplate,
}
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TemplatesQuery {
    /// The archived templates instead of the others.
    #[serde(default)]
    pub archived: bool,
}

forward! {
/// The organization's capture templates, newest first (any participant).
#[utoipa::path(get, path = "/api/organizations/capture-templates/", tag = "organizations", security(("bearer" = [])),
    params(TemplatesQuery),
    responses((status = 200, body = CaptureTemplates), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn list_capture_templates(query: TemplatesQuery) -> CaptureTemplates = evidence
    .list_templates(|query| evidence::ListTemplatesRequest { archived: query.archived });
}

forward! {
/// Creates a capture template (the organization's owner and admins; 403 for members).
#[utoipa::path(post, path = "/api/organizations/capture-templates/create/", tag = "organizations", security(("bearer" = [])),
    request_body = TemplateRequest,
    responses((status = 201, body = CaptureTemplate), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn create_capture_template(body: TemplateRequest) -> Created<CaptureTemplate> =
    evidence.create_template;
}

forward! {
/// One of the organization's capture templates.
#[utoipa::path(get, path = "/api/organizations/capture-templates/{template_id}/", tag = "organizations", security(("bearer" = [])),
    params(("template_id" = String, Path)),
    responses((status = 200, body = CaptureTemplate), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn get_capture_template(path: String) -> CaptureTemplate =
    evidence.get_template(|template_id| evidence::GetTemplateRequest { template_id });
}

forward! {
/// Replaces a template's name, description and steps, in the order given (owner and admins).
/// Folders already made from it keep their own steps.
#[utoipa::path(put, path = "/api/organizations/capture-templates/{template_id}/update/", tag = "organizations", security(("bearer" = [])),
    params(("template_id" = String, Path)), request_body = TemplateRequest,
    responses((status = 200, body = CaptureTemplate), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn update_capture_template(path: String, body: TemplateRequest) -> CaptureTemplate =
    evidence.update_template(|template_id, body| evidence::UpdateTemplateRequest {
        template_id,
        template: Some(body.into()),
    });
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ArchiveRequest {
    pub archived: bool,
}

forward! {
/// Archives a template (no new folders from it) or brings it back (owner and admins).
#[utoipa::path(post, path = "/api/organizations/capture-templates/{template_id}/archive/", tag = "organizations", security(("bearer" = [])),
    params(("template_id" = String, Path)), request_body = ArchiveRequest,
    responses((status = 200, body = CaptureTemplate), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn archive_capture_template(path: String, body: ArchiveRequest) -> CaptureTemplate =
    evidence.archive_template(|template_id, body| evidence::ArchiveTemplateRequest {
        template_id,
        archived: body.archived,
    });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FolderStep {
    pub id: String,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaKind>,
    pub min_files: i32,
    pub max_files: i32,
    /// Files that count: verified, and accepted when contributed.
    pub file_count: i32,
    /// At least `min_files` files count.
    pub complete: bool,
    /// The step's files (empty in lists).
    pub items: Vec<Item>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrganizationFolder {
    pub id: String,
    pub name: String,
    pub template_id: String,
    pub template_name: String,
    pub created_at: Option<String>,
    /// The storage date, RFC 3339.
    pub storage_expires_at: Option<String>,
    pub expired: bool,
    pub expire_soon: bool,
    pub file_count: i64,
    pub step_count: i32,
    pub steps_complete: i32,
    /// Contributions that arrived and wait for a decision.
    pub pending_count: i32,
    pub steps: Vec<FolderStep>,
}

impl From<evidence::OrganizationFolder> for OrganizationFolder {
    fn from(f: evidence::OrganizationFolder) -> Self {
        let folder = Folder::from(f.folder.unwrap_or_default());
        Self {
            id: folder.id,
            name: folder.name,
            template_id: f.template_id,
            template_name: f.template_name,
            created_at: folder.created_at,
            storage_expires_at: folder.expiration_date,
            expired: folder.expired,
            expire_soon: folder.expire_soon,
            file_count: folder.file_count,
            step_count: i32::try_from(f.steps.len()).unwrap_or(i32::MAX),
            steps_complete: f.steps_complete,
            pending_count: f.pending_count,
            steps: f
                .steps
                .into_iter()
                .map(|s| FolderStep {
                    media_types: kinds(&s.media_types),
                    id: s.id,
                    name: s.name,
                    instructions: s.instructions,
                    min_files: s.min_files,
                    max_files: s.max_files,
                    file_count: s.file_count,
                    complete: s.complete,
                    items: s.items.into_iter().map(Into::into).collect(),
                })
                .collect(),
        }
    }
}

lists! {
OrganizationFolders from evidence::ListOrganizationFoldersResponse {
    folders: OrganizationFolder,
}
}

forward! {
/// The organization's folders, newest first, with their steps' state (any participant).
#[utoipa::path(get, path = "/api/organizations/folders/", tag = "organizations", security(("bearer" = [])),
    responses((status = 200, body = OrganizationFolders), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn list_organization_folders() -> OrganizationFolders =
    evidence.list_organization_folders(evidence::ListOrganizationFoldersRequest {});
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewOrganizationFolder {
    #[schema(value_type = uuid::Uuid)]
    pub template_id: String,
    /// Spec section 5 "File name".
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    /// The device's id for the folder: creating again with it answers the same folder.
    #[schema(value_type = Option<uuid::Uuid>, required = false)]
    pub client_id: Option<String>,
}

forward! {
/// Opens a folder from one of the organization's templates (any participant). Its storage date
/// is the default period; the organization's owner pays its extensions.
#[utoipa::path(post, path = "/api/organizations/folders/create/", tag = "organizations", security(("bearer" = [])),
    request_body = NewOrganizationFolder,
    responses((status = 201, body = OrganizationFolder), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn create_organization_folder(body: NewOrganizationFolder) -> Created<OrganizationFolder> =
    evidence.create_organization_folder(|body| evidence::CreateOrganizationFolderRequest {
        template_id: body.template_id,
        name: body.name,
        client_id: body.client_id,
    });
}

forward! {
/// One organization folder with its steps and their files.
#[utoipa::path(get, path = "/api/organizations/folders/{folder_id}/", tag = "organizations", security(("bearer" = [])),
    params(("folder_id" = String, Path)),
    responses((status = 200, body = OrganizationFolder), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn get_organization_folder(path: String) -> OrganizationFolder = evidence
    .get_organization_folder(|folder_id| evidence::GetOrganizationFolderRequest { folder_id });
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Accepted,
    Declined,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReviewRequest {
    pub decision: Decision,
}

forward! {
/// Accepts or declines a pending contribution (any participant). A declined file is deleted
/// after the configured period.
#[utoipa::path(post, path = "/api/organizations/items/{item_id}/review/", tag = "organizations", security(("bearer" = [])),
    params(("item_id" = String, Path)), request_body = ReviewRequest,
    responses((status = 200, body = Item), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn review_contribution(path: String, body: ReviewRequest) -> Item =
    evidence.review_item(|item_id, body| evidence::ReviewItemRequest {
        item_id,
        decision: match body.decision {
            Decision::Accepted => "accepted",
            Decision::Declined => "declined",
        }
        .to_owned(),
    });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionLink {
    pub id: String,
    pub folder_id: String,
    /// The link itself: only in the answer that created it (it is kept hashed).
    pub url: String,
    /// `email` or `sms`.
    pub channel: String,
    pub sent_to: String,
    pub expires_at: Option<String>,
    pub max_submissions: i32,
    pub submissions: i32,
    /// `active`, `expired`, `revoked` or `used_up`.
    pub state: String,
    pub created_at: Option<String>,
}

impl From<sharing::ContributionLink> for ContributionLink {
    fn from(l: sharing::ContributionLink) -> Self {
        Self {
            id: l.id,
            folder_id: l.folder_id,
            url: l.url,
            channel: l.channel,
            sent_to: l.sent_to,
            expires_at: rfc3339(l.expires_at),
            max_submissions: l.max_submissions,
            submissions: l.submissions,
            state: l.state,
            created_at: rfc3339(l.created_at),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContributionLinkRequest {
    #[schema(value_type = uuid::Uuid)]
    pub folder_id: String,
    /// The contributor's e-mail address, or
    #[schema(max_length = 250, required = false)]
    pub email: Option<String>,
    /// their phone number (the link goes by SMS).
    #[schema(required = false)]
    pub phone_number: Option<PhoneNumber>,
    #[schema(minimum = 1, maximum = 30)]
    pub expires_in_days: i32,
    #[schema(minimum = 1, maximum = 100)]
    pub max_submissions: i32,
}

/// Opens a contribution link for an organization folder and sends it by e-mail or SMS (any
/// participant).
#[utoipa::path(post, path = "/api/sharing/contribution-links/create/", tag = "organizations", security(("bearer" = [])),
    request_body = ContributionLinkRequest,
    responses((status = 201, body = ContributionLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn create_contribution_link(
    State(state): State<AppState>,
    User(caller): User,
    ApiJson(body): ApiJson<ContributionLinkRequest>,
) -> ApiResult<Created<ContributionLink>> {
    let organization = state
        .accounts()
        .get_organization(caller.request(accounts::GetOrganizationRequest {}))
        .await
        .answer()?;
    // The share's recipient rule: both given are refused, not one dropped.
    let contributor = RecipientInput::new(body.email, body.phone_number)
        .map_err(|message| ApiError::field("email", message))?;
    let address = match (contributor.email, contributor.phone_number) {
        (Some(email), _) => Some(sharing::recipient::Address::Email(email)),
        (None, Some(phone)) => Some(sharing::recipient::Address::PhoneNumber(phone_pb(phone))),
        (None, None) => None,
    };
    state
        .sharing()
        .create_contribution_link(caller.request(sharing::CreateContributionLinkRequest {
            folder_id: body.folder_id,
            organization_name: organization.name,
            recipient: Some(sharing::Recipient { address }),
            expires_in_days: body.expires_in_days,
            max_submissions: body.max_submissions,
        }))
        .await
        .reply()
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinksQuery {
    #[param(value_type = uuid::Uuid)]
    pub folder_id: String,
}

lists! {
ContributionLinks from sharing::ListContributionLinksResponse {
    links: ContributionLink,
}
}

forward! {
/// The folder's contribution links, newest first.
#[utoipa::path(get, path = "/api/sharing/contribution-links/", tag = "organizations", security(("bearer" = [])),
    params(LinksQuery),
    responses((status = 200, body = ContributionLinks), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
fn list_contribution_links(query: LinksQuery) -> ContributionLinks = sharing
    .list_contribution_links(|query| sharing::ListContributionLinksRequest { folder_id: query.folder_id });
}

forward! {
/// Revokes a contribution link: its contributors can send nothing more.
#[utoipa::path(post, path = "/api/sharing/contribution-links/{link_id}/revoke/", tag = "organizations", security(("bearer" = [])),
    params(("link_id" = String, Path)),
    responses((status = 200, body = ContributionLink), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn revoke_contribution_link(path: String) -> ContributionLink =
    sharing.revoke_contribution_link(|link_id| sharing::RevokeContributionLinkRequest { link_id });
}
