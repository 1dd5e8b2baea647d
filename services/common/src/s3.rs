//! The S3 client every service that stores media builds the same way: SeaweedFS locally, AWS S3
//! in production, by configuration alone.

use aws_sdk_s3::{
    Client,
    config::{BehaviorVersion, Credentials, Region},
};
use secrecy::{ExposeSecret, SecretString};

use crate::config::{ConfigError, env_or, secret_or};

#[derive(Debug, Clone)]
pub struct S3Config {
    /// Empty means AWS S3 itself.
    pub endpoint: String,
    pub region: String,
    pub bucket: String,
    pub access_key_id: String,
    pub secret_access_key: SecretString,
}

impl S3Config {
    /// `S3_ENDPOINT`, `S3_REGION`, `S3_BUCKET`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`.
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            endpoint: env_or("S3_ENDPOINT", "http://127.0.0.1:8333")?,
            region: env_or("S3_REGION", "us-east-1")?,
            bucket: env_or("S3_BUCKET", "evidentia-media")?,
            access_key_id: env_or("S3_ACCESS_KEY_ID", "evidentia")?,
            secret_access_key: secret_or("S3_SECRET_ACCESS_KEY", "evidentia-local-secret")?,
        })
    }

    pub fn client(&self) -> Client {
        let credentials = Credentials::new(
            &self.access_key_id,
            self.secret_access_key.expose_secret(),
            None,
            None,
            "evidentia-config",
        );
        let mut builder = aws_sdk_s3::config::Builder::new()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(self.region.clone()))
            .credentials_provider(credentials);
        if !self.endpoint.is_empty() {
            builder = builder.endpoint_url(&self.endpoint).force_path_style(true);
        }
        Client::from_conf(builder.build())
    }
}
