//! Sharing's configuration: the local stack's defaults, overridden by the environment.

use std::{path::PathBuf, time::Duration};

use evidentia_common::{
    config::{
        ConfigError, Configuration, SecretString, ServiceConfig, env_or, secret_or, signing_secret,
    },
    s3::S3Config,
    signing::SigningKeys,
    sms::SmsConfig,
};

use crate::{
    render::provenance::Provenance,
    state::{Clock, Settings},
};

/// The local stack's key for recipients' links (anyone can read it here, so it is refused
/// elsewhere).
pub const LOCAL_LINK_SECRET: &str = "sharing-links-local-development-only-0000";

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    /// Where recipients open shared copies (links in messages).
    pub public_base_url: String,
    pub link_secret: SecretString,
    pub s3: S3Config,
    /// How long a link to a copy's bytes works.
    pub presign_ttl: Duration,
    pub smtp_url: SecretString,
    pub mail_from: String,
    pub sms: SmsConfig,
    pub evidence_url: String,
    pub payments_url: String,
    /// Signs custody-log heads and packet manifests: the key evidence signs receipts with.
    pub keys: SigningKeys,
    /// Signs the C2PA manifests of authenticated copies.
    pub provenance: Provenance,
    pub settings: Settings,
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            service: ServiceConfig::from_env("sharing", 50054)?,
            public_base_url: env_or("PUBLIC_URL", "http://127.0.0.1:8080")?,
            link_secret: signing_secret("SHARING_LINK_SECRET", LOCAL_LINK_SECRET)?,
            s3: S3Config::from_env()?,
            presign_ttl: Duration::from_secs(env_or("SHARING_COPY_URL_TTL_SECONDS", "900")?),
            smtp_url: secret_or("SMTP_URL", "smtp://127.0.0.1:1025")?,
            mail_from: env_or("MAIL_FROM", "Evidentia <no-reply@evidentia.local>")?,
            sms: SmsConfig::from_env()?,
            evidence_url: env_or("EVIDENCE_GRPC_URL", "http://127.0.0.1:50053")?,
            payments_url: env_or("PAYMENTS_GRPC_URL", "http://127.0.0.1:50052")?,
            keys: SigningKeys::from_env("SHARING")?,
            provenance: Provenance::from_env()?,
            settings: Settings {
                access_token_ttl: Duration::from_secs(env_or(
                    "SHARING_ACCESS_TOKEN_TTL_SECONDS",
                    "86400",
                )?),
                code_ttl: Duration::from_secs(env_or("SHARING_CODE_TTL_SECONDS", "600")?),
                code_tries: env_or("SHARING_CODE_TRIES", "5")?,
                code_sends_per_recipient: env_or("SHARING_CODE_SENDS_PER_RECIPIENT", "5")?,
                code_sends_per_client: env_or("SHARING_CODE_SENDS_PER_CLIENT", "20")?,
                verifications_per_client: env_or("SHARING_VERIFICATIONS_PER_CLIENT", "30")?,
                ffmpeg: PathBuf::from(env_or::<String>("SHARING_FFMPEG", "ffmpeg")?),
                work_dir: PathBuf::from(env_or::<String>(
                    "SHARING_WORK_DIR",
                    &std::env::temp_dir()
                        .join("evidentia-sharing")
                        .to_string_lossy(),
                )?),
                render_attempts: env_or("SHARING_RENDER_ATTEMPTS", "3")?,
                chat_messages_per_token: env_or("SHARING_CHAT_MESSAGES_PER_TOKEN", "20")?,
                chat_away_after: Duration::from_secs(env_or(
                    "SHARING_CHAT_AWAY_AFTER_SECONDS",
                    "300",
                )?),
                chat_notify_every: Duration::from_secs(env_or(
                    "SHARING_CHAT_NOTIFY_EVERY_SECONDS",
                    "30",
                )?),
                futuregram_quorum: env_or("SHARING_FUTUREGRAM_QUORUM", "1")?,
                futuregram_wait: Duration::from_secs(env_or(
                    "SHARING_FUTUREGRAM_WAIT_SECONDS",
                    "172800",
                )?),
                futuregram_veto_window: Duration::from_secs(env_or(
                    "SHARING_FUTUREGRAM_VETO_WINDOW_SECONDS",
                    "86400",
                )?),
                futuregram_view_ttl: Duration::from_secs(env_or(
                    "SHARING_FUTUREGRAM_VIEW_TTL_SECONDS",
                    "604800",
                )?),
                futuregram_tick: Duration::from_secs(env_or(
                    "SHARING_FUTUREGRAM_TICK_SECONDS",
                    "5",
                )?),
                clock: Clock::system(),
                contribution_uploads_per_link: env_or(
                    "SHARING_CONTRIBUTION_UPLOADS_PER_LINK",
                    "300",
                )?,
                contribution_uploads_per_client: env_or(
                    "SHARING_CONTRIBUTION_UPLOADS_PER_CLIENT",
                    "300",
                )?,
                contributor_token_ttl: Duration::from_secs(env_or(
                    "SHARING_CONTRIBUTOR_TOKEN_TTL_SECONDS",
                    "86400",
                )?),
                custody_head_every: Duration::from_secs(env_or(
                    "SHARING_CUSTODY_HEAD_INTERVAL_SECONDS",
                    "3600",
                )?),
                packet_link_ttl: Duration::from_secs(env_or(
                    "SHARING_PACKET_LINK_TTL_SECONDS",
                    "600",
                )?),
            },
        })
    }
}
