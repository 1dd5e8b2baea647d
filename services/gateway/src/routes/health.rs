//! Health: liveness of the gateway, and readiness of the whole system: every service's standard
//! gRPC health check (each SERVING only while its database, broker and Redis answer) and the
//! gateway's own Redis (the deny-list of ended sessions).

use std::time::Duration;

use axum::{Json, extract::State, http::StatusCode};
use serde::Serialize;
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{AppState, area};

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable`.
    pub status: String,
    /// Services that are not serving.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failing: Vec<String>,
}

pub fn routes() -> OpenApiRouter<AppState> {
    area![ready, live]
}

/// Ready when every service answers its gRPC health check with SERVING and Redis answers.
#[utoipa::path(get, path = "/api/health/", tag = "health",
    responses((status = 200, body = Health), (status = 503, body = Health)))]
async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    let checks = state.clients.all.iter().map(|(name, channel)| {
        let mut client = HealthClient::new(channel.clone());
        async move {
            let request = HealthCheckRequest {
                service: String::new(),
            };
            let serving = tokio::time::timeout(Duration::from_secs(2), client.check(request))
                .await
                .ok()
                .and_then(Result::ok)
                .is_some_and(|r| r.into_inner().status == ServingStatus::Serving as i32);
            (*name, serving)
        }
    });
    let mut redis = state.sessions.redis.clone();
    let ping = redis::cmd("PING");
    let (services, redis) = futures::join!(
        futures::future::join_all(checks),
        tokio::time::timeout(
            Duration::from_secs(2),
            ping.query_async::<String>(&mut redis)
        )
    );
    let mut failing: Vec<String> = services
        .into_iter()
        .filter(|(_, serving)| !serving)
        .map(|(name, _)| name.to_owned())
        .collect();
    if !matches!(redis, Ok(Ok(_))) {
        failing.push("redis".to_owned());
    }
    if failing.is_empty() {
        (
            StatusCode::OK,
            Json(Health {
                status: "ok".into(),
                failing,
            }),
        )
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(Health {
                status: "unavailable".into(),
                failing,
            }),
        )
    }
}

/// The gateway process itself is up.
#[utoipa::path(get, path = "/api/health/live/", tag = "health", responses((status = 200, body = Health)))]
async fn live() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        failing: Vec::new(),
    })
}
