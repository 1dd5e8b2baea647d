//! The referrals service's configuration: defaults are the local stack.

use std::time::Duration;

use evidentia_common::{
    config::{ConfigError, Configuration, SecretString, ServiceConfig, env_or, secret_or},
    sms::SmsConfig,
};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    /// Where the web app is served: invitation links point at its sign-up screen.
    pub public_base_url: String,
    pub smtp_url: SecretString,
    pub mail_from: String,
    pub sms: SmsConfig,
    pub limits: Limits,
}

/// How much one user can send, and how often a code can be checked (docs/decisions.md,
/// "Referrals").
#[derive(Debug, Clone)]
pub struct Limits {
    /// Invitations one user can send (new ones and resends) in 24 hours.
    pub invitations_per_day: i64,
    /// How long after a send the same invitation can go again.
    pub resend_after: Duration,
    /// How many times one invitation can be sent in all.
    pub sends_per_invitation: i32,
    /// Referral code checks per client address per hour.
    pub checks_per_client: u32,
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("referrals", 50055)?,
            public_base_url: env_or("PUBLIC_URL", "http://127.0.0.1:8080")?,
            smtp_url: secret_or("SMTP_URL", "smtp://127.0.0.1:1025")?,
            mail_from: env_or("MAIL_FROM", "Evidentia <no-reply@evidentia.local>")?,
            sms: SmsConfig::from_env()?,
            limits: Limits {
                invitations_per_day: env_or("REFERRALS_INVITATIONS_PER_DAY", "20")?,
                resend_after: Duration::from_secs(env_or("REFERRALS_RESEND_AFTER_SECONDS", "600")?),
                sends_per_invitation: env_or("REFERRALS_SENDS_PER_INVITATION", "5")?,
                checks_per_client: env_or("REFERRALS_CHECKS_PER_CLIENT", "60")?,
            },
        })
    }
}
