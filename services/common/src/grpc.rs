//! gRPC plumbing: the server (health service, one span per call continuing the caller's trace,
//! the caller read once from metadata, graceful shutdown) and clients (trace context and the
//! verified user in metadata).

use std::{
    net::SocketAddr,
    task::{Context, Poll},
    time::Duration,
};

use tokio_stream::wrappers::TcpListenerStream;
use tokio_util::sync::CancellationToken;
use tonic::{
    Request, Status,
    metadata::{MetadataMap, MetadataValue},
    service::Interceptor,
    transport::{Channel, Endpoint},
};
use tower::layer::util::{Identity, Stack};
use uuid::Uuid;

use crate::telemetry;

/// Metadata key of the user the gateway verified from the access token.
pub const USER_ID: &str = "x-user-id";
/// Metadata key of the end user's client address, as seen by the gateway.
pub const CLIENT_IP: &str = "x-client-ip";
/// Metadata key of the end user's user agent.
pub const USER_AGENT: &str = "x-user-agent";
/// Metadata key of the gateway's request id.
pub const REQUEST_ID: &str = "x-request-id";

/// The router every service builds on [`server`].
pub type Router = tonic::transport::server::Router<Stack<CallerLayer, Identity>>;

/// A configured server builder: every call gets a span that continues the caller's trace, and
/// its [`Caller`] in the request's extensions (read by [`caller_of`] and [`user_of`]).
pub fn server() -> tonic::transport::Server<Stack<CallerLayer, Identity>> {
    tonic::transport::Server::builder()
        .timeout(Duration::from_secs(30))
        .trace_fn(|req: &http::Request<()>| {
            let span = tracing::info_span!(
                "grpc.server",
                otel.name = %req.uri().path().trim_start_matches('/'),
                otel.kind = "server",
                rpc.system = "grpc",
                rpc.method = %req.uri().path(),
                request_id = req.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or(""),
            );
            telemetry::set_parent_from(&span, &telemetry::HeaderExtractor(req.headers()));
            span
        })
        .layer(CallerLayer)
}

/// Reads the [`Caller`] from every incoming call's headers into its extensions, so a handler
/// never parses metadata itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct CallerLayer;

impl<S> tower::Layer<S> for CallerLayer {
    type Service = CallerService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        CallerService { inner }
    }
}

/// The service [`CallerLayer`] wraps around every gRPC service.
#[derive(Debug, Clone)]
pub struct CallerService<S> {
    inner: S,
}

impl<S, B> tower::Service<http::Request<B>> for CallerService<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let caller = Caller::from_headers(request.headers());
        request.extensions_mut().insert(caller);
        self.inner.call(request)
    }
}

/// Adds the standard gRPC health service, marks `services` SERVING, and serves on `listener`
/// until `shutdown` is cancelled.
pub async fn serve(
    router: Router,
    listener: tokio::net::TcpListener,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "gRPC server listening");
    router
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown.cancelled_owned())
        .await?;
    Ok(())
}

/// Binds a TCP listener (port 0 picks a free port: tests use it).
pub async fn bind(addr: SocketAddr) -> anyhow::Result<tokio::net::TcpListener> {
    Ok(tokio::net::TcpListener::bind(addr).await?)
}

/// A lazily connecting channel to another service.
pub fn channel(url: &str) -> anyhow::Result<Channel> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(Duration::from_secs(3))
        .timeout(Duration::from_secs(15))
        .tcp_nodelay(true)
        .connect_lazy())
}

/// Client interceptor that writes the current trace context into the call's metadata.
#[derive(Debug, Clone, Copy, Default)]
pub struct TracePropagation;

impl Interceptor for TracePropagation {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        telemetry::inject_current(&mut MetadataInjector(request.metadata_mut()));
        Ok(request)
    }
}

struct MetadataInjector<'a>(&'a mut MetadataMap);

impl opentelemetry::propagation::Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) = (
            tonic::metadata::MetadataKey::from_bytes(key.as_bytes()),
            MetadataValue::try_from(value.as_str()),
        ) {
            self.0.insert(key, value);
        }
    }
}

/// The user the gateway verified for `request`, or `Unauthenticated`: the first line of every
/// handler that acts for a signed-in user.
pub fn user_of<T>(request: &Request<T>) -> Result<Uuid, Status> {
    caller_of(request).require_user()
}

/// Who sent `request`, as [`CallerLayer`] read it (nobody when the call did not pass the layer).
pub fn caller_of<T>(request: &Request<T>) -> Caller {
    request
        .extensions()
        .get::<Caller>()
        .cloned()
        .unwrap_or_default()
}

/// Who is calling, as the gateway established it. Services read it from metadata.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    pub user_id: Option<Uuid>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
    pub request_id: Option<String>,
}

impl Caller {
    /// Reads the caller from a call's headers (gRPC metadata travels as HTTP/2 headers).
    fn from_headers(headers: &http::HeaderMap) -> Self {
        let text = |key: &str| {
            headers
                .get(key)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .filter(|v| !v.is_empty())
        };
        Self {
            user_id: text(USER_ID).and_then(|v| Uuid::parse_str(&v).ok()),
            client_ip: text(CLIENT_IP),
            user_agent: text(USER_AGENT),
            request_id: text(REQUEST_ID),
        }
    }

    /// The verified user, or `Unauthenticated` when the gateway sent none.
    pub fn require_user(&self) -> Result<Uuid, Status> {
        self.user_id
            .ok_or_else(|| Status::unauthenticated("Authentication credentials were not provided."))
    }

    /// Wraps `message` in a request carrying this caller in its metadata.
    pub fn request<T>(&self, message: T) -> Request<T> {
        let mut request = Request::new(message);
        let metadata = request.metadata_mut();
        let mut put = |key: &'static str, value: Option<&str>| {
            if let Some(value) = value
                && let Ok(value) = MetadataValue::try_from(value)
            {
                metadata.insert(key, value);
            }
        };
        put(USER_ID, self.user_id.map(|id| id.to_string()).as_deref());
        put(CLIENT_IP, self.client_ip.as_deref());
        put(USER_AGENT, self.user_agent.as_deref());
        put(REQUEST_ID, self.request_id.as_deref());
        request
    }
}
