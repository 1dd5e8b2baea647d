//! The evidence service's configuration: defaults are the local stack.

use evidentia_common::config::{ConfigError, ServiceConfig, env_or, secret_or};

use crate::storage::S3Config;

#[derive(Debug, Clone)]
pub struct Config {
    pub service: ServiceConfig,
    pub s3: S3Config,
    pub storage: StoragePolicy,
    pub uploads: UploadPolicy,
}

/// Storage dates (docs/decisions.md "Storage dates").
#[derive(Debug, Clone)]
pub struct StoragePolicy {
    /// A new folder keeps its files this long.
    pub default_period_days: i64,
    /// A folder whose date is this close shows 'EXPIRES SOON'.
    pub expire_soon_days: i64,
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

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let presign_ttl_seconds: u64 = env_or("PRESIGN_TTL_SECONDS", "900")?;
        if !(1..=900).contains(&presign_ttl_seconds) {
            return Err(ConfigError {
                name: "PRESIGN_TTL_SECONDS".into(),
                value: presign_ttl_seconds.to_string(),
                reason: "must be between 1 and 900 (15 minutes)".into(),
            });
        }
        Ok(Self {
            service: ServiceConfig::from_env("evidence", 50053)?,
            s3: S3Config {
                endpoint: env_or("S3_ENDPOINT", "http://127.0.0.1:8333")?,
                region: env_or("S3_REGION", "us-east-1")?,
                bucket: env_or("S3_BUCKET", "evidentia-media")?,
                access_key_id: env_or("S3_ACCESS_KEY_ID", "evidentia")?,
                secret_access_key: secret_or("S3_SECRET_ACCESS_KEY", "evidentia-local-secret")?,
            },
            storage: StoragePolicy {
                default_period_days: env_or("STORAGE_DEFAULT_PERIOD_DAYS", "365")?,
                expire_soon_days: env_or("STORAGE_EXPIRE_SOON_DAYS", "30")?,
            },
            uploads: UploadPolicy {
                presign_ttl_seconds,
                single_upload_max_bytes: env_or("SINGLE_UPLOAD_MAX_BYTES", "104857600")?,
                part_size_bytes: env_or("UPLOAD_PART_SIZE_BYTES", "8388608")?,
                max_file_bytes: env_or("MAX_FILE_BYTES", "10737418240")?,
                abandon_after_hours: env_or("UPLOAD_ABANDON_AFTER_HOURS", "24")?,
            },
        })
    }
}
