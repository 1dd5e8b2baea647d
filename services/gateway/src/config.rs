//! The gateway's configuration: defaults are the local stack.

use std::net::SocketAddr;

use evidentia_common::{
    auth::LOCAL_JWT_SECRET,
    config::{ConfigError, DEFAULT_REDIS_URL, SecretString, env_or, signing_secret},
};

#[derive(Debug, Clone)]
pub struct Config {
    pub http_listen_addr: SocketAddr,
    pub accounts_url: String,
    pub payments_url: String,
    pub evidence_url: String,
    pub sharing_url: String,
    pub referrals_url: String,
    /// Verifies access tokens (the secret accounts signs them with).
    pub jwt_secret: SecretString,
    /// The deny-list of ended sessions (written by accounts).
    pub redis_url: String,
    pub web_dist_dir: String,
    pub stripe_publishable_key: String,
    pub stripe_js_url: String,
    /// Extra origins the browser may connect to (S3, Stripe), space separated, for the CSP.
    pub csp_connect_src_extra: String,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            http_listen_addr: env_or("HTTP_LISTEN_ADDR", "127.0.0.1:8081")?,
            accounts_url: env_or("ACCOUNTS_GRPC_URL", "http://127.0.0.1:50051")?,
            payments_url: env_or("PAYMENTS_GRPC_URL", "http://127.0.0.1:50052")?,
            evidence_url: env_or("EVIDENCE_GRPC_URL", "http://127.0.0.1:50053")?,
            sharing_url: env_or("SHARING_GRPC_URL", "http://127.0.0.1:50054")?,
            referrals_url: env_or("REFERRALS_GRPC_URL", "http://127.0.0.1:50055")?,
            jwt_secret: signing_secret("JWT_SECRET", LOCAL_JWT_SECRET)?,
            redis_url: env_or("REDIS_URL", DEFAULT_REDIS_URL)?,
            web_dist_dir: env_or("WEB_DIST_DIR", "web/dist")?,
            stripe_publishable_key: env_or("STRIPE_PUBLISHABLE_KEY", "pk_test_local")?,
            stripe_js_url: env_or("STRIPE_JS_URL", "http://127.0.0.1:8420/js.stripe.com/v3/")?,
            csp_connect_src_extra: env_or(
                "CSP_CONNECT_SRC_EXTRA",
                "http://127.0.0.1:8333 http://127.0.0.1:8420",
            )?,
        })
    }
}
