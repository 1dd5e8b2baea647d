//! Anonymous contributors (spec sections 2, 4, 6, 7): whoever holds an organization's
//! contribution link proves an e-mail address with a 6-digit code, then sends files into the
//! folder's steps with the contribution token (`X-Contribution-Token`). They see the steps and
//! their own files only. The upload calls are the spec's `sharing/anonymous/proofs/...`; the
//! verification calls are ours.

use axum::{Json, extract::State, http::StatusCode};
use evidentia_common::{grpc::Caller, time::rfc3339};
use evidentia_proto::sharing::v1 as sharing;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area, evidence::captured_at, org_capture::MediaKind};
use crate::{
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, Client, header_extractor},
    forward::{Created, Reply, forward},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![
        send_contributor_code,
        check_contributor_code,
        contribution_step,
        create_proof,
        single_upload_url,
        start_multipart_upload,
        finish_contribution_upload,
        update_proof
    ]
}

header_extractor! {
    /// The contributor's token (`X-Contribution-Token`), empty when absent.
    ContributionToken = "x-contribution-token"
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContributorCodeRequest {
    /// The token in the link's URL (`?link=`).
    #[schema(max_length = 100)]
    pub link: String,
    #[schema(max_length = 150)]
    pub email: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributorCodeSent {
    pub code_id: String,
    pub sent_to: String,
    /// Seconds.
    pub expires_in: i32,
}

impl From<sharing::ContributorCodeSent> for ContributorCodeSent {
    fn from(sent: sharing::ContributorCodeSent) -> Self {
        Self {
            code_id: sent.code_id,
            sent_to: sent.sent_to,
            expires_in: sent.expires_in,
        }
    }
}

/// Sends a 6-digit code to the address the contributor gives. A link that expired, was revoked
/// or is used up says so (400 `link_expired`, `link_revoked`, `link_used_up`).
#[utoipa::path(post, path = "/api/sharing/anonymous/verification/send/", tag = "sharing",
    request_body = ContributorCodeRequest,
    responses((status = 200, body = ContributorCodeSent), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn send_contributor_code(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<ContributorCodeRequest>,
) -> ApiResult<Json<ContributorCodeSent>> {
    let request = sharing::SendContributorCodeRequest {
        link: body.link,
        email: body.email,
        client_ip: caller.client_ip.clone().unwrap_or_default(),
    };
    state
        .sharing()
        .send_contributor_code(caller.request(request))
        .await
        .reply()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContributorCodeCheck {
    #[schema(max_length = 20)]
    pub confirmation_code: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributorGranted {
    /// Send it as `X-Contribution-Token`.
    pub contribution_token: String,
    pub folder_id: String,
    pub expires_at: Option<String>,
}

impl From<sharing::ContributorGranted> for ContributorGranted {
    fn from(granted: sharing::ContributorGranted) -> Self {
        Self {
            contribution_token: granted.contribution_token,
            folder_id: granted.folder_id,
            expires_at: rfc3339(granted.expires_at),
        }
    }
}

forward! {
/// Checks the code (single use, 10 minutes, 5 tries) and answers the contribution token.
#[utoipa::path(post, path = "/api/sharing/anonymous/verification/{code_id}/check/", tag = "sharing",
    params(("code_id" = String, Path)), request_body = ContributorCodeCheck,
    responses((status = 200, body = ContributorGranted), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
fn check_contributor_code(Client, path: String, body: ContributorCodeCheck) -> ContributorGranted =
    sharing.check_contributor_code(|code_id, body| sharing::CheckContributorCodeRequest {
        code_id,
        confirmation_code: body.confirmation_code,
    });
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Contribution {
    pub id: String,
    pub step_id: String,
    pub name: String,
    pub media_type: String,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    /// `awaiting_upload`, `uploaded`, `verified` or `rejected`.
    pub status: String,
    pub rejection_reason: String,
    pub captured_at: Option<String>,
    pub received_at: Option<String>,
    pub verified_at: Option<String>,
}

impl From<sharing::Submission> for Contribution {
    fn from(s: sharing::Submission) -> Self {
        Self {
            id: s.id,
            step_id: s.step_id,
            name: s.name,
            media_type: s.media_type,
            mime_type: s.mime_type,
            file_size: s.file_size,
            sha256: s.sha256,
            status: s.status,
            rejection_reason: s.rejection_reason,
            captured_at: rfc3339(s.captured_at),
            received_at: rfc3339(s.received_at),
            verified_at: rfc3339(s.verified_at),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionStepInfo {
    pub id: String,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaKind>,
    pub min_files: i32,
    pub max_files: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionStep {
    pub id: String,
    pub name: String,
    pub instructions: String,
    pub media_types: Vec<MediaKind>,
    pub min_files: i32,
    pub max_files: i32,
    /// The contributor's own files in this step.
    pub submissions: Vec<Contribution>,
}

fn media_kinds(values: &[String]) -> Vec<MediaKind> {
    values
        .iter()
        .filter_map(|m| match m.as_str() {
            "image" => Some(MediaKind::Image),
            "video" => Some(MediaKind::Video),
            "audio" => Some(MediaKind::Audio),
            _ => None,
        })
        .collect()
}

impl From<sharing::ContributionStep> for ContributionStep {
    fn from(s: sharing::ContributionStep) -> Self {
        Self {
            media_types: media_kinds(&s.media_types),
            id: s.id,
            name: s.name,
            instructions: s.instructions,
            min_files: s.min_files,
            max_files: s.max_files,
            submissions: s.submissions.into_iter().map(Into::into).collect(),
        }
    }
}

/// The folder as the contributor sees it (from `sharing/folder/{folderId}/details/` with the
/// contribution token).
#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionDetails {
    pub folder_id: String,
    pub folder_name: String,
    pub organization_name: String,
    /// The address the contributor proved.
    pub email: String,
    /// When the contribution token stops working.
    pub expires_at: Option<String>,
    pub submissions_left: i32,
}

/// The folder's steps with the contributor's own files (`.../contents/` with the token).
#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionContents {
    pub steps: Vec<ContributionStep>,
}

pub async fn contributor_folder(
    state: &AppState,
    token: String,
    folder_id: String,
    step_id: Option<String>,
) -> ApiResult<sharing::ContributorFolder> {
    state
        .sharing()
        .get_contributor_folder(sharing::GetContributorFolderRequest {
            token,
            folder_id,
            step_id,
        })
        .await
        .answer()
}

pub fn details(found: &sharing::ContributorFolder) -> ContributionDetails {
    ContributionDetails {
        folder_id: found.folder_id.clone(),
        folder_name: found.folder_name.clone(),
        organization_name: found.organization_name.clone(),
        email: found.email.clone(),
        expires_at: rfc3339(found.expires_at),
        submissions_left: found.submissions_left,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ContributionStepContents {
    pub step: ContributionStepInfo,
    pub submissions: Vec<Contribution>,
}

/// One step of the folder and the contributor's own files in it.
#[utoipa::path(get, path = "/api/sharing/evidence/{folder_id}/{step_id}/", tag = "sharing",
    params(("folder_id" = String, Path), ("step_id" = String, Path), ("X-Contribution-Token" = String, Header)),
    responses((status = 200, body = ContributionStepContents), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn contribution_step(
    State(state): State<AppState>,
    ContributionToken(token): ContributionToken,
    ApiPath((folder_id, step_id)): ApiPath<(String, String)>,
) -> ApiResult<Json<ContributionStepContents>> {
    let found = contributor_folder(&state, token, folder_id, Some(step_id)).await?;
    let step = found
        .steps
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "not_found", "Not found."))?;
    Ok(Json(ContributionStepContents {
        submissions: step.submissions.into_iter().map(Into::into).collect(),
        step: ContributionStepInfo {
            media_types: media_kinds(&step.media_types),
            id: step.id,
            name: step.name,
            instructions: step.instructions,
            min_files: step.min_files,
            max_files: step.max_files,
        },
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewProof {
    /// The device's id for the file: creating again with it answers the same file (a rejected
    /// one starts over).
    #[schema(value_type = uuid::Uuid)]
    pub client_id: String,
    #[schema(min_length = 2, max_length = 50)]
    pub name: String,
    pub media_type: MediaKind,
    #[schema(max_length = 100)]
    pub mime_type: String,
    #[schema(minimum = 1)]
    pub file_size: i64,
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub sha256: String,
    /// RFC 3339.
    #[schema(required = false)]
    pub captured_at: Option<String>,
    #[schema(minimum = -90, maximum = 90, required = false)]
    pub latitude: Option<f64>,
    #[schema(minimum = -180, maximum = 180, required = false)]
    pub longitude: Option<f64>,
    /// Seconds, for video and audio.
    #[schema(minimum = 0, maximum = 86400, required = false)]
    pub duration: Option<f64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProofCreated {
    pub evidence: Contribution,
    /// `single` (ask for the upload URL) or `multipart` (start a multipart upload); empty when
    /// the file's upload has already finished.
    pub upload: String,
}

impl From<sharing::SubmissionCreated> for ProofCreated {
    fn from(made: sharing::SubmissionCreated) -> Self {
        Self {
            evidence: made.submission.unwrap_or_default().into(),
            upload: made.upload,
        }
    }
}

/// Registers a file for one step (spec: `sharing/anonymous/proofs/{folderId}/{stepId}/create/`).
#[utoipa::path(post, path = "/api/sharing/anonymous/proofs/{id}/{step_id}/create/", tag = "sharing",
    params(("id" = String, Path, description = "The folder"), ("step_id" = String, Path), ("X-Contribution-Token" = String, Header)),
    request_body = NewProof,
    responses((status = 201, body = ProofCreated), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn create_proof(
    State(state): State<AppState>,
    Client(caller): Client,
    ContributionToken(token): ContributionToken,
    ApiPath((folder_id, step_id)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<NewProof>,
) -> ApiResult<Created<ProofCreated>> {
    let captured_at = captured_at(body.captured_at.as_deref())?;
    state
        .sharing()
        .create_submission(sharing::CreateSubmissionRequest {
            token,
            folder_id,
            step_id,
            client_ip: caller.client_ip.clone().unwrap_or_default(),
            client_id: body.client_id,
            name: body.name,
            media_type: match body.media_type {
                MediaKind::Image => "image",
                MediaKind::Video => "video",
                MediaKind::Audio => "audio",
            }
            .to_owned(),
            mime_type: body.mime_type,
            file_size: body.file_size,
            sha256: body.sha256,
            captured_at,
            latitude: body.latitude,
            longitude: body.longitude,
            duration_seconds: body.duration,
        })
        .await
        .reply()
}

/// One of the contributor's files, named by the token that lets them send it; the service limits
/// the calls per client address.
fn submission(caller: Caller, token: String, submission_id: String) -> sharing::SubmissionRequest {
    sharing::SubmissionRequest {
        token,
        submission_id,
        client_ip: caller.client_ip.unwrap_or_default(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PresignedPost {
    pub url: String,
    pub fields: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SingleUploadUrl {
    /// POST `fields`, then the file as `file`, to `url`.
    pub presigned_upload_url: PresignedPost,
}

impl From<sharing::SubmissionPost> for SingleUploadUrl {
    fn from(post: sharing::SubmissionPost) -> Self {
        Self {
            presigned_upload_url: PresignedPost {
                url: post.url,
                fields: post.fields.into_iter().collect(),
            },
        }
    }
}

/// The presigned POST of a file sent in one request.
#[utoipa::path(post, path = "/api/sharing/anonymous/proofs/proofs/{evidence_id}/single-upload-url/create/", tag = "sharing",
    params(("evidence_id" = String, Path), ("X-Contribution-Token" = String, Header)),
    responses((status = 200, body = SingleUploadUrl), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn single_upload_url(
    State(state): State<AppState>,
    Client(caller): Client,
    ContributionToken(token): ContributionToken,
    ApiPath(submission_id): ApiPath<String>,
) -> ApiResult<Json<SingleUploadUrl>> {
    let request = submission(caller, token, submission_id);
    state
        .sharing()
        .submission_single_upload(request)
        .await
        .reply()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PresignedPart {
    pub part_number: i32,
    pub url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MultipartStarted {
    pub upload_id: String,
    pub part_size: i64,
    pub part_count: i32,
    /// PUT each part not yet in `completed_parts` to its URL.
    pub presigned_urls: Vec<PresignedPart>,
    pub completed_parts: Vec<i32>,
}

impl From<sharing::SubmissionParts> for MultipartStarted {
    fn from(parts: sharing::SubmissionParts) -> Self {
        Self {
            upload_id: parts.upload_id,
            part_size: parts.part_size,
            part_count: parts.part_count,
            presigned_urls: parts
                .urls
                .into_iter()
                .map(|p| PresignedPart {
                    part_number: p.part_number,
                    url: p.url,
                })
                .collect(),
            completed_parts: parts.completed_parts,
        }
    }
}

/// Starts (or resumes) a file sent in parts: every part's presigned URL.
#[utoipa::path(post, path = "/api/sharing/anonymous/proofs/{id}/multipart-upload/start/", tag = "sharing",
    params(("id" = String, Path, description = "The file (evidence id)"), ("X-Contribution-Token" = String, Header)),
    responses((status = 200, body = MultipartStarted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn start_multipart_upload(
    State(state): State<AppState>,
    Client(caller): Client,
    ContributionToken(token): ContributionToken,
    ApiPath(submission_id): ApiPath<String>,
) -> ApiResult<Json<MultipartStarted>> {
    let request = submission(caller, token, submission_id);
    state
        .sharing()
        .start_submission_multipart(request)
        .await
        .reply()
}

/// The bytes are up (in parts or in one POST): the stored object is checked and the file
/// received. When it is missing or incomplete the file is marked rejected (400 `rejected`); a
/// create with the same client id starts it over.
#[utoipa::path(post, path = "/api/sharing/anonymous/proofs/{id}/multipart-upload/finish/", tag = "sharing",
    params(("id" = String, Path, description = "The file (evidence id)"), ("X-Contribution-Token" = String, Header)),
    responses((status = 200, body = Contribution), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn finish_contribution_upload(
    State(state): State<AppState>,
    Client(caller): Client,
    ContributionToken(token): ContributionToken,
    ApiPath(submission_id): ApiPath<String>,
) -> ApiResult<Json<Contribution>> {
    let request = submission(caller, token, submission_id);
    state.sharing().finish_submission(request).await.reply()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProofUpdate {
    #[schema(min_length = 2, max_length = 50, required = false)]
    pub name: Option<String>,
    #[schema(minimum = -90, maximum = 90, required = false)]
    pub latitude: Option<f64>,
    #[schema(minimum = -180, maximum = 180, required = false)]
    pub longitude: Option<f64>,
}

/// Changes a file's name or place while it waits for the organization's decision.
#[utoipa::path(put, path = "/api/sharing/anonymous/proofs/{id}/update/", tag = "sharing",
    params(("id" = String, Path, description = "The file (evidence id)"), ("X-Contribution-Token" = String, Header)),
    request_body = ProofUpdate,
    responses((status = 200, body = Contribution), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn update_proof(
    State(state): State<AppState>,
    ContributionToken(token): ContributionToken,
    ApiPath(submission_id): ApiPath<String>,
    ApiJson(body): ApiJson<ProofUpdate>,
) -> ApiResult<Json<Contribution>> {
    let request = sharing::UpdateSubmissionRequest {
        token,
        submission_id,
        name: body.name,
        latitude: body.latitude,
        longitude: body.longitude,
    };
    state.sharing().update_submission(request).await.reply()
}
