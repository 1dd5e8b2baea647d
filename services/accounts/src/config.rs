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

/// Where text messages go: a real HTTP provider (Twilio's Messages API shape) in production, a
/// directory with one file per message locally and in tests.
#[derive(Debug, Clone)]
pub enum SmsConfig {
    Files {
        dir: String,
    },
    Http {
        /// e.g. `https://api.twilio.com/2010-04-01/Accounts/{sid}/Messages.json`
        url: String,
        username: String,
        password: SecretString,
        from: String,
    },
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
            public_url: env_or("PUBLIC_URL", "http://127.0.0.1:8080")?,
            sms: match env_or::<String>("SMS_PROVIDER", "files")?.as_str() {
                "http" => SmsConfig::Http {
                    url: required("SMS_HTTP_URL")?,
                    username: required("SMS_HTTP_USERNAME")?,
                    password: secret_or("SMS_HTTP_PASSWORD", "")?,
                    from: required("SMS_FROM")?,
                },
                "files" => SmsConfig::Files {
                    dir: env_or("SMS_DIR", ".dev/sms")?,
                },
                other => {
                    return Err(ConfigError {
                        name: "SMS_PROVIDER".to_owned(),
                        value: other.to_owned(),
                        reason: "must be 'files' or 'http'".to_owned(),
                    });
                }
            },
            recovery_grace_seconds: env_or("ACCOUNT_RECOVERY_GRACE_SECONDS", "2592000")?,
            purge_interval_seconds: env_or("ACCOUNT_PURGE_INTERVAL_SECONDS", "60")?,
            invite_ttl_seconds: env_or("ORGANIZATION_INVITE_TTL_SECONDS", "604800")?,
            password_token_ttl_seconds: env_or("PASSWORD_TOKEN_TTL_SECONDS", "600")?,
        })
    }
}

fn required(name: &str) -> Result<String, ConfigError> {
    let value: String = env_or(name, "")?;
    if value.is_empty() {
        return Err(ConfigError {
            name: name.to_owned(),
            value,
            reason: "must be set when SMS_PROVIDER is http".to_owned(),
        });
    }
    Ok(value)
}
