//! The payments service's configuration: defaults are the local stack (localstripe).

use evidentia_common::config::{ConfigError, SecretString, ServiceConfig, env_or, secret_or};

use crate::pricing::Pricing;

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub stripe_secret_key: SecretString,
    /// The Stripe API base; empty means Stripe itself.
    pub stripe_api_base: String,
    pub stripe_webhook_secret: SecretString,
    pub pricing: Pricing,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("payments", 50052)?,
            stripe_secret_key: secret_or("STRIPE_SECRET_KEY", "sk_test_local")?,
            stripe_api_base: env_or("STRIPE_API_BASE", "http://127.0.0.1:8420")?,
            stripe_webhook_secret: secret_or("STRIPE_WEBHOOK_SECRET", "whsec_local")?,
            pricing: Pricing::from_env()?,
        })
    }
}
