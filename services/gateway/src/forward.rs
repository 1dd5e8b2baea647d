//! Forwarding a call to a domain service, the gateway's common case: an accessor per client on
//! `AppState`, `reply()` turning the service's answer into the route's JSON body through `From`,
//! and `forward!`, which writes a route that does nothing else from its OpenAPI annotation, its
//! input and the RPC it calls. Routes that compose (such as `accounts/me/`) are written out.

use axum::Json;
use evidentia_proto::{
    accounts::v1::accounts_service_client::AccountsServiceClient,
    evidence::v1::evidence_service_client::EvidenceServiceClient,
    payments::v1::payments_service_client::PaymentsServiceClient,
    referrals::v1::referrals_service_client::ReferralsServiceClient,
    sharing::v1::sharing_service_client::SharingServiceClient,
};

use crate::{clients::Traced, error::ApiResult, routes::AppState};

impl AppState {
    pub fn accounts(&self) -> AccountsServiceClient<Traced> {
        self.clients.accounts.clone()
    }

    pub fn evidence(&self) -> EvidenceServiceClient<Traced> {
        self.clients.evidence.clone()
    }

    pub fn payments(&self) -> PaymentsServiceClient<Traced> {
        self.clients.payments.clone()
    }

    pub fn referrals(&self) -> ReferralsServiceClient<Traced> {
        self.clients.referrals.clone()
    }

    pub fn sharing(&self) -> SharingServiceClient<Traced> {
        self.clients.sharing.clone()
    }
}

/// A service's answer, as a route needs it.
pub trait Reply<T> {
    /// The answer converted into the route's JSON body; a gRPC error becomes the API's error.
    fn reply<D: From<T>>(self) -> ApiResult<Json<D>>;
    /// The answer itself, for a route that composes several calls.
    fn answer(self) -> ApiResult<T>;
}

impl<T> Reply<T> for Result<tonic::Response<T>, tonic::Status> {
    fn reply<D: From<T>>(self) -> ApiResult<Json<D>> {
        Ok(Json(D::from(self?.into_inner())))
    }

    fn answer(self) -> ApiResult<T> {
        Ok(self?.into_inner())
    }
}

/// A route that only forwards to one RPC, signed in unless it says `Client`. Its forms:
///
/// - `fn name(body: Body) -> Reply = client.rpc;` the JSON body, converted with `From` into the
///   RPC's request;
/// - `fn name(path: P) -> Reply = client.rpc(|p| request);` the path parameter, made into the
///   request by the closure;
/// - `fn name() -> Reply = client.rpc(request);` a request with nothing from the caller but who
///   they are;
/// - `fn name(Client, body: Body) -> Reply = client.rpc;` the first form for a route open to
///   anyone (sign-up, sign-in, recovery): no token is asked for, and the request carries only
///   where it came from (`extract::Client`).
///
/// The answer converts with `From` into `Reply`. The `#[utoipa::path]` annotation and the doc
/// comment go above `fn` as on any handler.
macro_rules! forward {
    ($(#[$attr:meta])* fn $name:ident(body: $body:ty) -> $reply:ty = $client:ident.$rpc:ident;) => {
        $(#[$attr])*
        async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::routes::AppState>,
            $crate::auth::User(caller): $crate::auth::User,
            $crate::extract::ApiJson(body): $crate::extract::ApiJson<$body>,
        ) -> $crate::error::ApiResult<axum::Json<$reply>> {
            use $crate::forward::Reply as _;
            state.$client().$rpc(caller.request(body.into())).await.reply()
        }
    };
    ($(#[$attr:meta])* fn $name:ident(path: $path:ty) -> $reply:ty = $client:ident.$rpc:ident($make:expr);) => {
        $(#[$attr])*
        async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::routes::AppState>,
            $crate::auth::User(caller): $crate::auth::User,
            $crate::extract::ApiPath(path): $crate::extract::ApiPath<$path>,
        ) -> $crate::error::ApiResult<axum::Json<$reply>> {
            use $crate::forward::Reply as _;
            let make: fn($path) -> _ = $make;
            state.$client().$rpc(caller.request(make(path))).await.reply()
        }
    };
    ($(#[$attr:meta])* fn $name:ident() -> $reply:ty = $client:ident.$rpc:ident($request:expr);) => {
        $(#[$attr])*
        async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::routes::AppState>,
            $crate::auth::User(caller): $crate::auth::User,
        ) -> $crate::error::ApiResult<axum::Json<$reply>> {
            use $crate::forward::Reply as _;
            state.$client().$rpc(caller.request($request)).await.reply()
        }
    };
    ($(#[$attr:meta])* fn $name:ident(Client, body: $body:ty) -> $reply:ty = $client:ident.$rpc:ident;) => {
        $(#[$attr])*
        async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::routes::AppState>,
            $crate::extract::Client(caller): $crate::extract::Client,
            $crate::extract::ApiJson(body): $crate::extract::ApiJson<$body>,
        ) -> $crate::error::ApiResult<axum::Json<$reply>> {
            use $crate::forward::Reply as _;
            state.$client().$rpc(caller.request(body.into())).await.reply()
        }
    };
}
pub(crate) use forward;
