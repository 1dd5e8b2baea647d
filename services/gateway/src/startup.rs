//! Builds the gateway: the API router with its layers (request id, trace, error finishing,
//! panics as 500s), the OpenAPI document and the web app.

use std::{sync::Arc, time::Duration};

use axum::{
    Json, Router,
    body::Body,
    extract::Request,
    http::{HeaderName, HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
};
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;
use tower_http::{
    catch_panic::CatchPanicLayer,
    limit::RequestBodyLimitLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use crate::{
    auth::TokenKey,
    clients::Clients,
    config::Config,
    error::{ApiError, ErrorBody, PendingError},
    routes::{self, AppState},
    web,
};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole application.
pub fn app(config: Config) -> anyhow::Result<Router> {
    let state = AppState {
        clients: Clients::connect(&config)?,
        token_key: TokenKey(config.jwt_secret.clone()),
        config: Arc::new(config.clone()),
    };
    let (api, openapi) = routes::api().split_for_parts();
    let openapi = Arc::new(openapi);
    let api = api
        .route(
            "/api/openapi.json",
            get(move || async move { Json(openapi.as_ref().clone()) }),
        )
        .route("/api", axum::routing::any(not_found))
        .route("/api/{*rest}", axum::routing::any(not_found))
        .with_state(state)
        .layer(middleware::from_fn(no_store));
    let app = api.merge(web::router(&config)).layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(|req: &Request<Body>| {
                        let span = tracing::info_span!(
                            "http.request",
                            otel.name = %format!("{} {}", req.method(), req.uri().path()),
                            otel.kind = "server",
                            http.request.method = %req.method(),
                            url.path = %req.uri().path(),
                            http.response.status_code = tracing::field::Empty,
                            enduser.id = tracing::field::Empty,
                            request_id = req.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or(""),
                        );
                        evidentia_common::telemetry::set_parent_from(
                            &span,
                            &evidentia_common::telemetry::HeaderExtractor(req.headers()),
                        );
                        span
                    })
                    .on_response(|res: &Response, latency: Duration, span: &tracing::Span| {
                        span.record("http.response.status_code", res.status().as_u16());
                        tracing::info!(status = res.status().as_u16(), latency_ms = latency.as_millis() as u64, "request");
                    }),
            )
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .layer(middleware::from_fn(finish_errors))
            .layer(CatchPanicLayer::custom(|_| ApiError::internal(&"handler panicked").into_response()))
            .layer(RequestBodyLimitLayer::new(1024 * 1024)),
    );
    Ok(app)
}

/// Serves until `shutdown`.
pub async fn run(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let app = app(config)?;
    tracing::info!(addr = %listener.local_addr()?, "gateway listening");
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await?;
    Ok(())
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "Not found.")
}

/// API answers are never cached (spec: `/api` is never served from a cache).
async fn no_store(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Writes the request id into error bodies, and turns a body-limit rejection into the API shape.
async fn finish_errors(req: Request, next: Next) -> Response {
    let request_id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let response = next.run(req).await;
    let pending = response.extensions().get::<PendingError>().cloned();
    let errors = match pending {
        Some(PendingError(errors)) => errors,
        None if response.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                "The request body is too large.",
            )
            .errors
        }
        None => return response,
    };
    let status = response.status();
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = Json(ErrorBody { errors, request_id })
        .into_response()
        .into_body();
    parts.status = status;
    Response::from_parts(parts, body)
}
