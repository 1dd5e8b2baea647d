//! `support/...`: the contact-us form (spec §2 lists the screen, not the call). Open to
//! anyone; the accounts service mails the message to support and limits it per client address.

use axum::{Json, extract::State, http::StatusCode};
use evidentia_proto::accounts::v1 as accounts;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};
use crate::{
    error::{ApiResult, ErrorBody},
    extract::{ApiJson, Client},
};

pub fn routes() -> OpenApiRouter<AppState> {
    area![contact]
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContactMessage {
    /// Spec §5 Name: 2 to 150 characters.
    #[schema(min_length = 2, max_length = 150)]
    pub name: String,
    /// Spec §5 Email.
    #[schema(
        max_length = 150,
        pattern = r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
    )]
    pub email: String,
    /// Spec §5 Short text: 3 to 30 characters.
    #[schema(min_length = 3, max_length = 30)]
    pub subject: String,
    /// Up to 2000 characters.
    #[schema(min_length = 1, max_length = 2000)]
    pub message: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Accepted {}

/// Sends a message to support by e-mail (5 per client address per hour).
#[utoipa::path(post, path = "/api/support/contact/", tag = "support",
    request_body = ContactMessage,
    responses((status = 202, body = Accepted), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn contact(
    State(state): State<AppState>,
    Client(caller): Client,
    ApiJson(body): ApiJson<ContactMessage>,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    state
        .accounts()
        .send_contact_message(caller.request(accounts::ContactMessage {
            name: body.name,
            email: body.email,
            subject: body.subject,
            message: body.message,
        }))
        .await?;
    Ok((StatusCode::ACCEPTED, Json(Accepted {})))
}
