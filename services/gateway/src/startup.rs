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
use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use tower::ServiceBuilder;
use tower_http::{
    catch_panic::CatchPanicLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    trace::TraceLayer,
};

use crate::{
    auth::{self, Sessions},
    clients::Clients,
    config::Config,
    error::{ApiError, ErrorBody, PendingError},
    routes::{self, AppState},
    web,
};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The largest request body the API takes (JSON only: media goes straight to the S3 store).
/// Envoy refuses larger bodies itself (deploy/local/envoy.yaml), with the same answer.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The whole application.
pub fn app(config: Config) -> anyhow::Result<Router> {
    let state = AppState {
        clients: Clients::connect(&config)?,
        sessions: Sessions {
            key: config.jwt_secret.clone(),
            redis: evidentia_common::ratelimit::connect_lazy(&config.redis_url)?,
        },
        config: Arc::new(config.clone()),
    };
    let sessions = state.sessions.clone();
    let (api, openapi) = routes::api().split_for_parts();
    let openapi = Arc::new(openapi);
    let api = api
        .route(
            "/api/openapi.json",
            get(move || async move { Json(openapi.as_ref().clone()) }),
        )
        .route("/api", axum::routing::any(not_found))
        .route("/api/{*rest}", axum::routing::any(not_found))
        // Last, so that it covers every route above.
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .layer(middleware::from_fn_with_state(
            sessions,
            auth::forget_profile_after_writes,
        ))
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
                    // Envoy's access log has a line for every request (id, status, times); this
                    // log adds one for a server error only, and at debug level for the rest: a
                    // second line per request, formatted here, showed in the read path's profile
                    // (docs/benchmarks.md).
                    .on_response(|res: &Response, latency: Duration, span: &tracing::Span| {
                        let status = res.status().as_u16();
                        span.record("http.response.status_code", status);
                        let latency_ms = latency.as_millis() as u64;
                        if res.status().is_server_error() {
                            tracing::warn!(status, latency_ms, "request");
                        } else {
                            tracing::debug!(status, latency_ms, "request");
                        }
                    }),
            )
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .layer(middleware::from_fn(finish_errors))
            .layer(CatchPanicLayer::custom(|_| ApiError::internal(&"handler panicked").into_response()))
            .layer(middleware::from_fn(read_whole_body)),
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

/// A known path with a method it does not take; axum adds the `Allow` header.
async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "Method not allowed.",
    )
}

/// Reads the whole request body, at most [`BODY_LIMIT`], before any handler runs: a larger one is
/// a 413 (at once when its Content-Length says so). An answer given before the body was read (a
/// 401, a 404, a 405) would otherwise leave unread bytes on the connection, and hyper closes such
/// a connection: Envoy, which pools connections to the gateway, then sometimes sends the next
/// request into the closing one and answers 503.
async fn read_whole_body(req: Request, next: Next) -> Response {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            "The request body is too large.",
        )
        .into_response()
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > BODY_LIMIT) {
        return too_large();
    }
    let (parts, body) = req.into_parts();
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else {
            return ApiError::bad_request("The request body could not be read.").into_response();
        };
        if bytes.len() + chunk.len() > BODY_LIMIT {
            return too_large();
        }
        bytes.extend_from_slice(&chunk);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// API answers are never cached (spec: `/api` is never served from a cache) nor sniffed.
async fn no_store(req: Request, next: Next) -> Response {
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Answers are JSON whatever a browser might guess from their bytes.
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Writes the request id into error bodies.
async fn finish_errors(req: Request, next: Next) -> Response {
    let request_id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let response = next.run(req).await;
    let pending = response.extensions().get::<PendingError>().cloned();
    let Some(PendingError(errors)) = pending else {
        return response;
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
