//! The payments service's configuration: defaults are the local stack (localstripe).

use evidentia_common::config::{
    ConfigError, Configuration, SecretString, ServiceConfig, env_or, secret_or, signing_secret,
};

use crate::pricing::Pricing;

/// The webhook signing secret of the local stack only (`./dev` registers it with localstripe).
pub const LOCAL_WEBHOOK_SECRET: &str = "whsec_local_development_only_0000000";

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub stripe_secret_key: SecretString,
    /// The Stripe API base; empty means Stripe itself.
    pub stripe_api_base: String,
    pub stripe_webhook_secret: SecretString,
    pub pricing: Pricing,
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("payments", 50052)?,
            stripe_secret_key: secret_or("STRIPE_SECRET_KEY", "sk_test_local")?,
            stripe_api_base: env_or("STRIPE_API_BASE", "http://127.0.0.1:8420")?,
            stripe_webhook_secret: signing_secret("STRIPE_WEBHOOK_SECRET", LOCAL_WEBHOOK_SECRET)?,
            pricing: Pricing::from_env()?,
        })
    }
}
