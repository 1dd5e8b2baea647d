//! The accounts service's configuration: defaults are the local stack.

use evidentia_common::{
    auth::LOCAL_JWT_SECRET,
    config::{
        ConfigError, Configuration, SecretString, ServiceConfig, env_or, secret_or, signing_secret,
    },
    ratelimit::Backoff,
    sms::SmsConfig,
};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub smtp_url: SecretString,
    pub mail_from: String,
    /// Where contact-us messages go.
    pub support_email: String,
    pub sessions: SessionSettings,
    pub limits: Limits,
    /// The web app's address, for links in messages (invites).
    pub public_url: String,
    pub sms: SmsConfig,
    /// How long a deleted account can be recovered.
    pub recovery_grace_seconds: i64,
    /// How often deleted accounts past their grace period are purged.
    pub purge_interval_seconds: u64,
    pub invite_ttl_seconds: i64,
    /// How long a password verification unlocks sensitive changes.
    pub password_token_ttl_seconds: i64,
}

/// How sessions are signed and how long their tokens live.
#[derive(Debug, Clone)]
pub struct SessionSettings {
    /// Signs access tokens; the gateway verifies them with the same secret.
    pub jwt_secret: SecretString,
    pub access_token_ttl_seconds: i64,
    pub refresh_token_ttl_seconds: i64,
}

/// Abuse limits (spec §4 "Session"): what one destination, client address or account may cost.
#[derive(Debug, Clone)]
pub struct Limits {
    pub code_ttl_seconds: i64,
    pub code_max_attempts: i32,
    /// Messages (codes, usernames, invites) one destination receives per window.
    pub code_sends_per_window: u32,
    /// Messages one client address may have sent per window, whatever the destinations.
    pub code_sends_per_client: u32,
    /// Messages sent in all per window: a ceiling on what an abuse can cost (SMS is paid).
    pub code_sends_total: u32,
    pub code_send_window_seconds: u64,
    pub verification_ttl_seconds: i64,
    /// Wrong passwords an account and client address pair may try before each further one
    /// waits 2, 4, 8 ... seconds.
    pub login_free_failures_per_pair: u32,
    /// Wrong passwords (on any account) a client address may try before its backoff starts.
    pub login_free_failures_per_client: u32,
    /// The longest a backoff makes anyone wait.
    pub login_max_wait_seconds: u64,
    /// Failures are forgotten this long after the last one.
    pub login_window_seconds: u64,
    pub contact_messages_per_hour: u32,
}

impl Limits {
    pub fn pair_backoff(&self) -> Backoff {
        Backoff {
            free: self.login_free_failures_per_pair,
            max_wait_secs: self.login_max_wait_seconds,
            window_secs: self.login_window_seconds,
        }
    }

    pub fn client_backoff(&self) -> Backoff {
        Backoff {
            free: self.login_free_failures_per_client,
            max_wait_secs: self.login_max_wait_seconds,
            window_secs: self.login_window_seconds,
        }
    }
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("accounts", 50051)?,
            smtp_url: secret_or("SMTP_URL", "smtp://127.0.0.1:1025")?,
            mail_from: env_or("MAIL_FROM", "Evidentia <no-reply@evidentia.local>")?,
            support_email: env_or("SUPPORT_EMAIL", "support@evidentia.local")?,
            sessions: SessionSettings {
                jwt_secret: signing_secret("JWT_SECRET", LOCAL_JWT_SECRET)?,
                access_token_ttl_seconds: env_or("ACCESS_TOKEN_TTL_SECONDS", "900")?,
                refresh_token_ttl_seconds: env_or("REFRESH_TOKEN_TTL_SECONDS", "2592000")?,
            },
            limits: Limits {
                code_ttl_seconds: env_or("CODE_TTL_SECONDS", "600")?,
                code_max_attempts: env_or("CODE_MAX_ATTEMPTS", "5")?,
                code_sends_per_window: env_or("CODE_SENDS_PER_WINDOW", "5")?,
                code_sends_per_client: env_or("CODE_SENDS_PER_CLIENT", "20")?,
                code_sends_total: env_or("CODE_SENDS_TOTAL", "2000")?,
                code_send_window_seconds: env_or("CODE_SEND_WINDOW_SECONDS", "3600")?,
                verification_ttl_seconds: env_or("VERIFICATION_TTL_SECONDS", "1800")?,
                login_free_failures_per_pair: env_or("LOGIN_FREE_FAILURES_PER_PAIR", "5")?,
                login_free_failures_per_client: env_or("LOGIN_FREE_FAILURES_PER_CLIENT", "100")?,
                login_max_wait_seconds: env_or("LOGIN_MAX_WAIT_SECONDS", "900")?,
                login_window_seconds: env_or("LOGIN_WINDOW_SECONDS", "900")?,
                contact_messages_per_hour: env_or("CONTACT_MESSAGES_PER_HOUR", "5")?,
            },
            public_url: env_or("PUBLIC_URL", "http://127.0.0.1:8080")?,
            sms: SmsConfig::from_env()?,
            recovery_grace_seconds: env_or("ACCOUNT_RECOVERY_GRACE_SECONDS", "2592000")?,
            purge_interval_seconds: env_or("ACCOUNT_PURGE_INTERVAL_SECONDS", "60")?,
            invite_ttl_seconds: env_or("ORGANIZATION_INVITE_TTL_SECONDS", "604800")?,
            password_token_ttl_seconds: env_or("PASSWORD_TOKEN_TTL_SECONDS", "600")?,
        })
    }
}
