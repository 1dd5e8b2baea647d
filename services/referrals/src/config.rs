//! The referrals service's configuration: defaults are the local stack.

use evidentia_common::config::{ConfigError, Configuration, ServiceConfig};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("referrals", 50055)?,
        })
    }
}
