//! The web app's files: hashed assets cached for a year (Brotli-compressed at build time for
//! browsers that take it), everything else revalidated, unknown
//! paths answered with the app shell (client-side routes), and a strict Content-Security-Policy.
//! A missing asset is a 404 that no one caches: after a deploy a browser may still ask for the
//! previous build's file, and the app shell in its place would be cached as a script for a year.

use axum::{
    Router,
    http::{HeaderValue, Request, StatusCode, header},
    middleware::{self, Next},
    response::Response,
};
use tower_http::services::{ServeDir, ServeFile};

use crate::config::Config;

fn origin(url: &str) -> String {
    url.split('/').take(3).collect::<Vec<_>>().join("/")
}

/// The policy: our own scripts and the Stripe.js origin only; inline styles are allowed (the
/// component library injects them), inline scripts are not.
pub fn content_security_policy(config: &Config) -> String {
    let stripe = origin(&config.stripe_js_url);
    let extra = config.csp_connect_src_extra.trim();
    format!(
        "default-src 'self'; script-src 'self' {stripe}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob: {extra}; media-src 'self' blob: {extra}; font-src 'self' data:; \
         connect-src 'self' {stripe} {extra}; frame-src {stripe}; worker-src 'self'; manifest-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Serves `web_dist_dir`, falling back to `index.html`.
pub fn router(config: &Config) -> Router {
    let dist = std::path::Path::new(&config.web_dist_dir);
    let index = dist.join("index.html");
    let csp = HeaderValue::from_str(&content_security_policy(config))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
    Router::new()
        // `npm run build` writes a Brotli copy beside each text asset (scripts/precompress.mjs):
        // sent to a browser that accepts it, with Content-Encoding set, so Envoy leaves it as it is.
        .nest_service(
            "/assets",
            ServeDir::new(dist.join("assets")).precompressed_br(),
        )
        .fallback_service(ServeDir::new(dist).fallback(ServeFile::new(index)))
        .layer(middleware::from_fn(
            move |req: Request<axum::body::Body>, next: Next| {
                let csp = csp.clone();
                async move { with_headers(req, next, csp).await }
            },
        ))
}

async fn with_headers(req: Request<axum::body::Body>, next: Next, csp: HeaderValue) -> Response {
    let hashed = req.uri().path().starts_with("/assets/");
    let mut response = next.run(req).await;
    let found = response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED;
    let headers = response.headers_mut();
    let cache = match (hashed, found) {
        (true, true) => "public, max-age=31536000, immutable",
        (_, false) => "no-store",
        (false, true) => "no-cache",
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if hashed {
        // The same path answers Brotli or plain by the request's Accept-Encoding: caches must
        // keep them apart.
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    headers.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(self), microphone=(self), geolocation=(self)"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_no_inline_script_and_names_stripe() {
        let config = Config::from_env().expect("defaults");
        let csp = content_security_policy(&config);
        assert!(
            csp.contains("script-src 'self' http://127.0.0.1:8420;"),
            "{csp}"
        );
        assert!(!csp.contains("'unsafe-eval'"));
        assert!(csp.contains("frame-ancestors 'none'"));
    }

    async fn get(router: &Router, path: &str) -> (StatusCode, String, String) {
        use tower::ServiceExt;
        let response = router
            .clone()
            .oneshot(
                Request::get(path)
                    .body(axum::body::Body::empty())
                    .expect("request"),
            )
            .await
            .expect("infallible");
        let status = response.status();
        let cache = response
            .headers()
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, cache, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn a_missing_asset_is_a_404_nobody_caches_and_client_routes_get_the_shell() {
        let dist = std::env::temp_dir().join(format!("evidentia-web-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(dist.join("assets")).expect("dist");
        std::fs::write(dist.join("index.html"), "<!doctype html><title>app</title>")
            .expect("index");
        std::fs::write(dist.join("assets/index-abc123.js"), "console.log(1)").expect("asset");
        let config = Config {
            web_dist_dir: dist.display().to_string(),
            ..Config::from_env().expect("defaults")
        };
        let router = router(&config);

        let (status, cache, body) = get(&router, "/assets/index-abc123.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(cache, "public, max-age=31536000, immutable");
        assert_eq!(body, "console.log(1)");

        // With a Brotli copy beside it, a browser that accepts Brotli gets that copy, said so.
        std::fs::write(dist.join("assets/index-abc123.js.br"), b"brotli bytes").expect("br");
        let response = tower::ServiceExt::oneshot(
            router.clone(),
            Request::get("/assets/index-abc123.js")
                .header(header::ACCEPT_ENCODING, "gzip, deflate, br")
                .body(axum::body::Body::empty())
                .expect("request"),
        )
        .await
        .expect("infallible");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response
                .headers()
                .get(header::CONTENT_ENCODING)
                .map(|v| v.as_bytes()),
            Some(&b"br"[..])
        );
        assert_eq!(
            response.headers().get(header::VARY).map(|v| v.as_bytes()),
            Some(&b"accept-encoding"[..])
        );
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(content_type.ends_with("javascript"), "{content_type}");
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        assert_eq!(&body[..], b"brotli bytes");
        let (status, _, body) = get(&router, "/assets/index-abc123.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            body, "console.log(1)",
            "without Accept-Encoding: br, the file itself"
        );

        let (status, cache, body) = get(&router, "/assets/index-DOESNOTEXIST.js").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(cache, "no-store");
        assert!(!body.contains("<!doctype html>"), "{body}");

        let (status, cache, body) = get(&router, "/events-history").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(cache, "no-cache");
        assert!(body.contains("<title>app</title>"));
        std::fs::remove_dir_all(&dist).ok();
    }
}
