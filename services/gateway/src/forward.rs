//! Forwarding a call to a domain service, the gateway's common case: an accessor per client on
//! `AppState`, `reply()` turning the service's answer into the route's answer (a JSON body through
//! `From`, `Created` or `NoContent`), and `forward!`, which writes a route that does nothing else
//! from its OpenAPI annotation, its input and the RPC it calls. Routes that compose (such as
//! `accounts/me/`) are written out.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use evidentia_proto::{
    accounts::v1::accounts_service_client::AccountsServiceClient,
    evidence::v1::evidence_service_client::EvidenceServiceClient,
    payments::v1::payments_service_client::PaymentsServiceClient,
    referrals::v1::referrals_service_client::ReferralsServiceClient,
    sharing::v1::sharing_service_client::SharingServiceClient,
};
use serde::Serialize;

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

/// What a route answers, made from a service's answer `T`: JSON (200), [`Created`] or
/// [`NoContent`].
pub trait FromAnswer<T> {
    fn from_answer(answer: T) -> Self;
}

impl<T, D: From<T>> FromAnswer<T> for Json<D> {
    fn from_answer(answer: T) -> Self {
        Json(D::from(answer))
    }
}

/// `201 Created` with the JSON body.
#[derive(Debug)]
pub struct Created<D>(pub D);

impl<D: Serialize> IntoResponse for Created<D> {
    fn into_response(self) -> Response {
        (StatusCode::CREATED, Json(self.0)).into_response()
    }
}

impl<T, D: From<T>> FromAnswer<T> for Created<D> {
    fn from_answer(answer: T) -> Self {
        Self(D::from(answer))
    }
}

/// `204 No Content`: the service's answer holds nothing the client needs.
#[derive(Debug)]
pub struct NoContent;

impl IntoResponse for NoContent {
    fn into_response(self) -> Response {
        StatusCode::NO_CONTENT.into_response()
    }
}

impl<T> FromAnswer<T> for NoContent {
    fn from_answer(_: T) -> Self {
        Self
    }
}

/// A service's answer, as a route needs it.
pub trait Reply<T> {
    /// The answer converted into the route's answer (a JSON body through `From`, [`Created`],
    /// [`NoContent`]); a gRPC error becomes the API's error.
    fn reply<R: FromAnswer<T>>(self) -> ApiResult<R>;
    /// The answer itself, for a route that composes several calls.
    fn answer(self) -> ApiResult<T>;
}

impl<T> Reply<T> for Result<tonic::Response<T>, tonic::Status> {
    fn reply<R: FromAnswer<T>>(self) -> ApiResult<R> {
        Ok(R::from_answer(self?.into_inner()))
    }

    fn answer(self) -> ApiResult<T> {
        Ok(self?.into_inner())
    }
}

/// A route that only forwards to one RPC, written as
/// `fn name(inputs) -> Answer = client.rpc(make);` under its doc comment and `#[utoipa::path]`.
///
/// The inputs, in this order, each optional: `Client` first for a route open to anyone (sign-up,
/// sign-in, recovery: no token is asked for and the request carries only where it came from,
/// `extract::Client`), or `MaybeUser` for one open to anyone that means more to a signed-in user
/// (`auth::MaybeUser`), else the caller must be signed in (`auth::User`); then `path: P`,
/// `query: Q` or `body: B` (`ApiPath`, `ApiQuery`, `ApiJson`), or `path: P, body: B`.
///
/// `make` turns the inputs into the RPC's request: a closure taking them in order
/// (`|folder_id, body| pb::RenameFolderRequest { folder_id, name: body.name }`), the request
/// itself when there is no input (`pb::GetWalletRequest {}`), or nothing at all
/// (`= client.rpc;`) for a body that converts with `From`.
///
/// `Answer` is the JSON body (200), `Created<Body>` (201) or `NoContent` (204); a body converts
/// with `From` from the RPC's answer.
macro_rules! forward {
    ($(#[$attr:meta])* fn $name:ident($($input:tt)*) -> Created<$reply:ty> = $($call:tt)+) => {
        $crate::forward::forward!(@who [$(#[$attr])*] $name [$crate::forward::Created<$reply>] ($($input)*) $($call)+);
    };
    ($(#[$attr:meta])* fn $name:ident($($input:tt)*) -> NoContent = $($call:tt)+) => {
        $crate::forward::forward!(@who [$(#[$attr])*] $name [$crate::forward::NoContent] ($($input)*) $($call)+);
    };
    ($(#[$attr:meta])* fn $name:ident($($input:tt)*) -> $reply:ty = $($call:tt)+) => {
        $crate::forward::forward!(@who [$(#[$attr])*] $name [axum::Json<$reply>] ($($input)*) $($call)+);
    };
    (@who $attrs:tt $name:ident $answer:tt (Client $(, $($input:tt)*)?) $($call:tt)+) => {
        $crate::forward::forward!(@input $attrs $name [$crate::extract::Client] $answer ($($($input)*)?) $($call)+);
    };
    (@who $attrs:tt $name:ident $answer:tt (MaybeUser $(, $($input:tt)*)?) $($call:tt)+) => {
        $crate::forward::forward!(@input $attrs $name [$crate::auth::MaybeUser] $answer ($($($input)*)?) $($call)+);
    };
    (@who $attrs:tt $name:ident $answer:tt ($($input:tt)*) $($call:tt)+) => {
        $crate::forward::forward!(@input $attrs $name [$crate::auth::User] $answer ($($input)*) $($call)+);
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt () $client:ident.$rpc:ident($request:expr);) => {
        $crate::forward::forward!(@fn $attrs $name $who $answer [] ($request) $client.$rpc);
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt (body: $body:ty) $client:ident.$rpc:ident;) => {
        $crate::forward::forward!(@fn $attrs $name $who $answer
            [body: $crate::extract::ApiJson<$body>,] (body.0.into()) $client.$rpc);
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt (body: $body:ty) $client:ident.$rpc:ident($make:expr);) => {
        $crate::forward::forward!(@one $attrs $name $who $answer [$crate::extract::ApiJson] [$body] $client.$rpc($make));
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt (path: $path:ty) $client:ident.$rpc:ident($make:expr);) => {
        $crate::forward::forward!(@one $attrs $name $who $answer [$crate::extract::ApiPath] [$path] $client.$rpc($make));
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt (query: $query:ty) $client:ident.$rpc:ident($make:expr);) => {
        $crate::forward::forward!(@one $attrs $name $who $answer [$crate::extract::ApiQuery] [$query] $client.$rpc($make));
    };
    (@input $attrs:tt $name:ident $who:tt $answer:tt (path: $path:ty, body: $body:ty) $client:ident.$rpc:ident($make:expr);) => {
        $crate::forward::forward!(@fn $attrs $name $who $answer
            [path: $crate::extract::ApiPath<$path>, body: $crate::extract::ApiJson<$body>,]
            ({ let make: fn($path, $body) -> _ = $make; make(path.0, body.0) }) $client.$rpc);
    };
    (@one $attrs:tt $name:ident $who:tt $answer:tt [$($extractor:tt)*] [$type:ty] $client:ident.$rpc:ident($make:expr)) => {
        $crate::forward::forward!(@fn $attrs $name $who $answer [input: $($extractor)*<$type>,]
            ({ let make: fn($type) -> _ = $make; make(input.0) }) $client.$rpc);
    };
    (@fn [$($attr:tt)*] $name:ident [$($who:tt)*] [$($answer:tt)*] [$($input:tt)*] ($request:expr) $client:ident.$rpc:ident) => {
        $($attr)*
        async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::routes::AppState>,
            $($who)*(caller): $($who)*,
            $($input)*
        ) -> $crate::error::ApiResult<$($answer)*> {
            use $crate::forward::Reply as _;
            state.$client().$rpc(caller.request($request)).await.reply()
        }
    };
}
pub(crate) use forward;

/// A reply made of lists, each the service's list of the same name with every message converted
/// with `From`: the JSON body and its conversion, written once.
///
/// `lists! { Name from pb::Response { field: Item, ... } }`, doc comments allowed on the struct
/// and on each field (they describe the schema).
macro_rules! lists {
    ($(#[$attr:meta])* $name:ident from $source:ty {
        $($(#[$field_attr:meta])* $field:ident: $item:ty),+ $(,)?
    }) => {
        $(#[$attr])*
        #[derive(Debug, serde::Serialize, utoipa::ToSchema)]
        pub struct $name {
            $($(#[$field_attr])* pub $field: Vec<$item>,)+
        }

        impl From<$source> for $name {
            fn from(reply: $source) -> Self {
                Self {
                    $($field: reply.$field.into_iter().map(Into::into).collect(),)+
                }
            }
        }
    };
}
pub(crate) use lists;
