//! The evidence service's configuration: defaults are the local stack.

use chrono::{DateTime, Utc};
use evidentia_common::{
    config::{ConfigError, Configuration, ServiceConfig, env_or},
    signing::SigningKeys,
};

use crate::{receipts::ReceiptKeys, storage::S3Config, timestamps::Tsa};

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub s3: S3Config,
    pub storage: StoragePolicy,
    pub uploads: UploadPolicy,
    pub media: MediaTools,
    pub geocoder: GeocoderConfig,
    /// Where organization membership is asked (accounts' gRPC endpoint).
    pub accounts_url: String,
    pub contributions: ContributionPolicy,
    /// The key receipts are signed with, and the retired keys published beside it.
    pub receipts: ReceiptKeys,
    /// Where receipts get their RFC 3161 timestamps (`EVIDENCE_TSA_URL`); none: no timestamps.
    pub timestamps: Option<Tsa>,
    /// How often receipts waiting for a timestamp are sent (`EVIDENCE_TSA_INTERVAL_SECONDS`).
    pub timestamp_interval_seconds: u64,
}

/// Reverse geocoding: the bundled gazetteer, or Nominatim falling back to it.
#[derive(Debug, Clone)]
pub enum GeocoderConfig {
    Offline,
    Nominatim {
        url: String,
        user_agent: String,
        timeout_ms: u64,
    },
}

/// Limits on what anonymous contributors send into organization folders.
#[derive(Debug, Clone)]
pub struct ContributionPolicy {
    /// Bytes one contributed file may have (at most the general `MAX_FILE_BYTES`).
    pub max_file_bytes: i64,
    /// How long a declined contribution is kept before it is deleted.
    pub declined_retention_seconds: i64,
    /// Larger contributed files go in parts (resumable on a phone's connection).
    pub single_upload_max_bytes: i64,
}

/// Programs that process media.
#[derive(Debug, Clone)]
pub struct MediaTools {
    /// The ffmpeg program that makes video poster frames (`EVIDENCE_FFMPEG`).
    pub ffmpeg: String,
    pub ffmpeg_timeout_seconds: u64,
}

/// Storage dates (docs/decisions.md "Storage dates").
#[derive(Debug, Clone)]
pub struct StoragePolicy {
    /// A new folder keeps its files this long.
    pub default_period_days: i64,
    /// A folder whose date is this close shows 'EXPIRES SOON'.
    pub expire_soon_days: i64,
    /// An expired folder's files are kept this long after its date (an extension restores
    /// them), then deleted (`EVIDENCE_EXPIRED_RETENTION_DAYS`).
    pub expired_retention_days: i64,
    /// How often the sweeper expires folders, purges them and aborts abandoned uploads.
    pub sweep_interval_seconds: u64,
}

impl StoragePolicy {
    /// A storage date has lapsed: the files cannot be opened, downloaded, shared or retaken.
    pub fn expired(&self, storage_expires_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        storage_expires_at <= now
    }

    /// Still live, but within `expire_soon_days` of its date ('EXPIRES SOON').
    pub fn expire_soon(&self, storage_expires_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        !self.expired(storage_expires_at, now)
            && storage_expires_at <= now + chrono::Duration::days(self.expire_soon_days)
    }
}

/// Uploads straight to S3 (docs/decisions.md "Uploads").
#[derive(Debug, Clone)]
pub struct UploadPolicy {
    /// Presigned URLs live this long (at most 15 minutes).
    pub presign_ttl_seconds: u64,
    /// Files up to this size go in one presigned POST; larger ones in parts.
    pub single_upload_max_bytes: i64,
    pub part_size_bytes: i64,
    pub max_file_bytes: i64,
    /// Uploads not finished after this long are aborted.
    pub abandon_after_hours: i64,
}

impl Configuration for Config {
    fn service(&self) -> &ServiceConfig {
        &self.service
    }

    fn from_env() -> Result<Self, ConfigError> {
        let presign_ttl_seconds: u64 = env_or("PRESIGN_TTL_SECONDS", "900")?;
        if !(1..=900).contains(&presign_ttl_seconds) {
            return Err(ConfigError {
                name: "PRESIGN_TTL_SECONDS".into(),
                value: presign_ttl_seconds.to_string(),
                reason: "must be between 1 and 900 (15 minutes)".into(),
            });
        }
        let expired_retention_days: i64 = env_or("EVIDENCE_EXPIRED_RETENTION_DAYS", "30")?;
        if !(0..=3650).contains(&expired_retention_days) {
            return Err(ConfigError {
                name: "EVIDENCE_EXPIRED_RETENTION_DAYS".into(),
                value: expired_retention_days.to_string(),
                reason: "must be between 0 and 3650 days".into(),
            });
        }
        let sweep_interval_seconds: u64 = env_or("EVIDENCE_SWEEP_INTERVAL_SECONDS", "600")?;
        if sweep_interval_seconds == 0 {
            return Err(ConfigError {
                name: "EVIDENCE_SWEEP_INTERVAL_SECONDS".into(),
                value: "0".into(),
                reason: "must be at least 1 second".into(),
            });
        }
        let geocoder = match env_or::<String>("EVIDENCE_GEOCODER", "offline")?.as_str() {
            "offline" => GeocoderConfig::Offline,
            "nominatim" => {
                let url: String = env_or("EVIDENCE_GEOCODER_URL", "http://nominatim:8080")?;
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(ConfigError {
                        name: "EVIDENCE_GEOCODER_URL".into(),
                        value: url,
                        reason: "must be an http:// or https:// URL of a Nominatim server".into(),
                    });
                }
                GeocoderConfig::Nominatim {
                    url,
                    user_agent: env_or(
                        "EVIDENCE_GEOCODER_USER_AGENT",
                        "Evidentia evidence service",
                    )?,
                    timeout_ms: env_or("EVIDENCE_GEOCODER_TIMEOUT_MS", "2000")?,
                }
            }
            other => {
                return Err(ConfigError {
                    name: "EVIDENCE_GEOCODER".into(),
                    value: other.to_owned(),
                    reason: "must be offline or nominatim".into(),
                });
            }
        };
        Ok(Self {
            timestamps: timestamp_authority()?,
            timestamp_interval_seconds: env_or("EVIDENCE_TSA_INTERVAL_SECONDS", "5")?,
            receipts: SigningKeys::from_env("EVIDENCE")?.into(),
            geocoder,
            service: ServiceConfig::from_env("evidence", 50053)?,
            s3: S3Config::from_env()?,
            storage: StoragePolicy {
                default_period_days: env_or("STORAGE_DEFAULT_PERIOD_DAYS", "365")?,
                expire_soon_days: env_or("STORAGE_EXPIRE_SOON_DAYS", "30")?,
                expired_retention_days,
                sweep_interval_seconds,
            },
            uploads: UploadPolicy {
                presign_ttl_seconds,
                single_upload_max_bytes: env_or("SINGLE_UPLOAD_MAX_BYTES", "104857600")?,
                part_size_bytes: env_or("UPLOAD_PART_SIZE_BYTES", "8388608")?,
                max_file_bytes: env_or("MAX_FILE_BYTES", "10737418240")?,
                abandon_after_hours: env_or("UPLOAD_ABANDON_AFTER_HOURS", "24")?,
            },
            accounts_url: env_or("ACCOUNTS_GRPC_URL", "http://127.0.0.1:50051")?,
            contributions: ContributionPolicy {
                max_file_bytes: env_or("EVIDENCE_CONTRIBUTION_MAX_FILE_BYTES", "2147483648")?,
                declined_retention_seconds: env_or(
                    "EVIDENCE_DECLINED_RETENTION_SECONDS",
                    "604800",
                )?,
                single_upload_max_bytes: env_or(
                    "EVIDENCE_CONTRIBUTION_SINGLE_UPLOAD_MAX_BYTES",
                    "8388608",
                )?,
            },
            media: MediaTools {
                ffmpeg: env_or("EVIDENCE_FFMPEG", "ffmpeg")?,
                ffmpeg_timeout_seconds: env_or("EVIDENCE_FFMPEG_TIMEOUT_SECONDS", "120")?,
            },
        })
    }
}

/// The time-stamping authority, when `EVIDENCE_TSA_URL` names one: its CA certificate comes from
/// `EVIDENCE_TSA_CA` (PEM) or the file `EVIDENCE_TSA_CA_FILE`.
fn timestamp_authority() -> Result<Option<Tsa>, ConfigError> {
    let url: String = env_or("EVIDENCE_TSA_URL", "")?;
    if url.is_empty() {
        return Ok(None);
    }
    let invalid = |name: &str, value: String, reason: &str| ConfigError {
        name: name.into(),
        value,
        reason: reason.into(),
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(invalid(
            "EVIDENCE_TSA_URL",
            url,
            "must be the http:// or https:// URL of an RFC 3161 time-stamping authority",
        ));
    }
    let mut ca: String = env_or("EVIDENCE_TSA_CA", "")?;
    if ca.is_empty() {
        let file: String = env_or("EVIDENCE_TSA_CA_FILE", "")?;
        ca = std::fs::read_to_string(&file).map_err(|e| {
            invalid(
                "EVIDENCE_TSA_CA_FILE",
                file.clone(),
                &format!("the authority's CA certificate (PEM) could not be read: {e}"),
            )
        })?;
    }
    if !ca.contains("-----BEGIN CERTIFICATE-----") {
        return Err(invalid(
            "EVIDENCE_TSA_CA",
            String::new(),
            "must be the time-stamping authority's CA certificate in PEM",
        ));
    }
    let timeout: u64 = env_or("EVIDENCE_TSA_TIMEOUT_SECONDS", "10")?;
    Tsa::new(
        url.clone(),
        ca,
        std::time::Duration::from_secs(timeout.max(1)),
    )
    .map(Some)
    .map_err(|e| invalid("EVIDENCE_TSA_URL", url, &e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storage_date_is_live_then_expires_soon_then_expired() {
        let policy = StoragePolicy {
            default_period_days: 365,
            expire_soon_days: 30,
            expired_retention_days: 30,
            sweep_interval_seconds: 60,
        };
        let now = Utc::now();
        let date = |days| now + chrono::Duration::days(days);
        assert!(!policy.expired(date(31), now) && !policy.expire_soon(date(31), now));
        assert!(!policy.expired(date(30), now) && policy.expire_soon(date(30), now));
        assert!(policy.expired(now, now) && !policy.expire_soon(now, now));
        assert!(policy.expired(date(-1), now));
    }
}
