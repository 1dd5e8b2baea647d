//! The accounts service's configuration : defaults are the local stack.

use evidentia_common::config::{ConfigError, SecretString, ServiceConfig, env_or, secret_or};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub smtp_url: SecretString,
    pub mail_from: String,
    /// Where contact-us messages go.
    pub support_email: String,
    /// Signs access tokens; the gateway verifies them with the same secret.
    pub jwt_secret: SecretString,
    pub access_token_ttl_seconds: i64,
    pub refresh_token_ttl_seconds: i64,
    pub limits: Limits,
}

/// Abuse limits (spec §4 "Session"; issue 2 §4).
#[derive(Debug, Clone)]
pub struct Limits {
    pub code_ttl_seconds: i64,
    pub code_max_attempts: i32,
    pub code_sends_per_window: u32,
    pub code_send_window_seconds: u64,
    pub verification_ttl_seconds: i64,
    pub logins_per_account: u32,
    pub logins_per_client: u32,
    pub login_window_seconds: u64,
    pub contact_messages_per_hour: u32,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("accounts", 50051)?,
            smtp_url: secret_or("SMTP_URL", "smtp://127.0.0.1:1025")?,
            mail_from: env_or("MAIL_FROM", "Evidentia <no-reply@evidentia.local>")?,
            support_email: env_or("SUPPORT_EMAIL", "support@evidentia.local")?,
            jwt_secret: secret_or("JWT_SECRET", "local-development-only-jwt-secret-change-me")?,
            access_token_ttl_seconds: env_or("ACCESS_TOKEN_TTL_SECONDS", "900")?,
            refresh_token_ttl_seconds: env_or("REFRESH_TOKEN_TTL_SECONDS", "2592000")?,
            limits: Limits {
                code_ttl_seconds: env_or("CODE_TTL_SECONDS", "600")?,
                code_max_attempts: env_or("CODE_MAX_ATTEMPTS", "5")?,
                code_sends_per_window: env_or("CODE_SENDS_PER_WINDOW", "5")?,
                code_send_window_seconds: env_or("CODE_SEND_WINDOW_SECONDS", "3600")?,
                verification_ttl_seconds: env_or("VERIFICATION_TTL_SECONDS", "1800")?,
                logins_per_account: env_or("LOGINS_PER_ACCOUNT", "10")?,
                logins_per_client: env_or("LOGINS_PER_CLIENT", "50")?,
                login_window_seconds: env_or("LOGIN_WINDOW_SECONDS", "900")?,
                contact_messages_per_hour: env_or("CONTACT_MESSAGES_PER_HOUR", "5")?,
            },
        })
    }
}
