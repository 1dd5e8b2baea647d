//! The REST surface under `/api/`: one module per area of spec §7.

pub mod accounts;
pub mod chat;
pub mod contribution;
pub mod evidence;
pub mod futuregram;
pub mod health;
pub mod org_capture;
pub mod organizations;
pub mod packets;
pub mod payments;
pub mod profile;
pub mod recovery;
pub mod referrals;
pub mod sharing;
pub mod support;

use std::sync::Arc;

use axum::extract::FromRef;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::{auth::Sessions, clients::Clients, config::Config};

/// An area's routes, each handler with its OpenAPI description; handlers of one path with
/// different methods are joined by `|` (`revoke_invite | preview_invite`), as utoipa-axum
/// registers a path once.
macro_rules! area {
    ($($($handler:ident)|+),* $(,)?) => {
        utoipa_axum::router::OpenApiRouter::new()
            $(.routes(utoipa_axum::routes!($($handler),+)))*
    };
}
pub(crate) use area;

#[derive(Clone)]
pub struct AppState {
    pub clients: Clients,
    pub sessions: Sessions,
    pub config: Arc<Config>,
}

impl FromRef<AppState> for Sessions {
    fn from_ref(state: &AppState) -> Self {
        state.sessions.clone()
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

/// Every route with its own OpenAPI description.
fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::routes())
        .merge(accounts::routes())
        .merge(recovery::routes())
        .merge(profile::routes())
        .merge(organizations::routes())
        .merge(evidence::routes())
        .merge(payments::routes())
        .merge(referrals::routes())
        .merge(sharing::routes())
        .merge(packets::routes())
        .merge(chat::routes())
        .merge(futuregram::routes())
        .merge(org_capture::routes())
        .merge(contribution::routes())
        .merge(support::routes())
}

/// Every route with its OpenAPI description, the errors common to all routes included.
pub fn api() -> OpenApiRouter<AppState> {
    let mut router = routes();
    document_common_errors(router.get_openapi_mut());
    router
}

/// The OpenAPI document, as served at `/api/openapi.json` and committed as `web/openapi.json`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    api().split_for_parts().1
}

/// The answers the gateway itself gives before a handler runs, written once for every operation
/// they apply to instead of in each annotation: 401 where a token is required (the `User`
/// extractor), 400 where a body, query or path parameter is read (`ApiJson`, `ApiQuery`,
/// `ApiPath`), 413 where a body is read (the body limit, also enforced by Envoy).
fn document_common_errors(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, RefOr, ResponseBuilder, path::ParameterIn, schema::Ref};
    let error = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build(),
        )
    };
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for operation in operations.into_iter().flatten() {
            let secured = operation.security.as_ref().is_some_and(|s| !s.is_empty());
            let has_body = operation.request_body.is_some();
            let has_params = operation.parameters.as_ref().is_some_and(|params| {
                params
                    .iter()
                    .any(|p| matches!(p.parameter_in, ParameterIn::Query | ParameterIn::Path))
            });
            let responses = &mut operation.responses.responses;
            if secured {
                responses.entry("401".to_owned()).or_insert_with(|| {
                    error("The access token is missing, malformed, expired or revoked.")
                });
            }
            if has_body || has_params {
                responses
                    .entry("400".to_owned())
                    .or_insert_with(|| error("The request is malformed or a field is invalid."));
            }
            if has_body {
                responses
                    .entry("413".to_owned())
                    .or_insert_with(|| error("The request body is larger than 1 MiB."));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_committed_openapi_document_matches_the_code() {
        // The web app generates its request and response types from web/openapi.json.
        let document = serde_json::to_string_pretty(&super::openapi()).expect("serialize") + "\n";
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/openapi.json");
        if std::env::var("UPDATE_OPENAPI").is_ok() {
            std::fs::write(&path, &document).expect("write web/openapi.json");
        }
        // The web's generated types name operations by their id: two alike break its build.
        let parsed: serde_json::Value = serde_json::from_str(&document).expect("json");
        let mut ids = std::collections::BTreeMap::<String, u32>::new();
        for operations in parsed["paths"].as_object().expect("paths").values() {
            for operation in operations.as_object().expect("operations").values() {
                if let Some(id) = operation["operationId"].as_str() {
                    *ids.entry(id.to_owned()).or_default() += 1;
                }
            }
        }
        let repeated: Vec<_> = ids.iter().filter(|(_, n)| **n > 1).collect();
        assert!(
            repeated.is_empty(),
            "operation ids used twice: {repeated:?}"
        );
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == document,
            "web/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo nextest run -p gateway -E 'test(openapi)'` then `npm run gen:api` in web/"
        );
        for path in [
            "/api/accounts/email-username-phone-number/verify/",
            "/api/accounts/confirmation-code/send/",
            "/api/accounts/confirmation-code/verify/",
            "/api/accounts/create/",
            "/api/accounts/login/",
            "/api/accounts/token/refresh/",
            "/api/accounts/me/",
            "/api/payments/stripe-customer/create/",
        ] {
            assert!(
                document.contains(&format!("\"{path}\"")),
                "{path} is not documented"
            );
        }
    }
}
