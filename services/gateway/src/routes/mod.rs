//! The REST surface under `/api/`: one module per area of spec §7.

pub mod accounts;
pub mod evidence;
pub mod health;
pub mod organizations;
pub mod payments;
pub mod profile;
pub mod recovery;
pub mod referrals;
pub mod support;

use std::sync::Arc;

use axum::extract::FromRef;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::{auth::TokenKey, clients::Clients, config::Config};

#[derive(Clone)]
pub struct AppState {
    pub clients: Clients,
    pub token_key: TokenKey,
    pub config: Arc<Config>,
}

impl FromRef<AppState> for TokenKey {
    fn from_ref(state: &AppState) -> Self {
        state.token_key.clone()
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Evidentia API", version = "1.0.1", description = "The REST surface of Evidentia (spec section 7)."),
    modifiers(&BearerAuth),
    components(schemas(crate::error::ErrorBody, crate::error::ErrorItem))
)]
struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// Every route with its OpenAPI description.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::routes())
        .merge(accounts::routes())
        .merge(recovery::routes())
        .merge(profile::routes())
        .merge(organizations::routes())
        .merge(evidence::routes())
        .merge(payments::routes())
        .merge(referrals::routes())
        .merge(support::routes())
}

/// The OpenAPI document, as served at `/api/openapi.json` and committed as `web/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api().split_for_parts().1
}
