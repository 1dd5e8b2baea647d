//! The referrals service's configuration: defaults are the local stack.

use evidentia_common::config::{ConfigError, ServiceConfig};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("referrals", 50055)?,
        })
    }
}
