//! The media store: S3 (SeaweedFS locally, AWS S3 in production, by configuration alone).

use aws_sdk_s3::{
    Client,
    config::{BehaviorVersion, Credentials, Region},
};
use secrecy::{ExposeSecret, SecretString};

#[derive(Debug, Clone)]
pub struct S3Config {
    /// Empty means AWS S3 itself.
    pub endpoint: String,
    pub region: String,
    pub bucket: String,
    pub access_key_id: String,
    pub secret_access_key: SecretString,
}

#[derive(Debug, Clone)]
pub struct MediaStore {
    client: Client,
    bucket: String,
}

impl MediaStore {
    pub async fn connect(config: &S3Config) -> anyhow::Result<Self> {
        let credentials = Credentials::new(
            &config.access_key_id,
            config.secret_access_key.expose_secret(),
            None,
            None,
            "evidentia-config",
        );
        let mut builder = aws_sdk_s3::config::Builder::new()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(config.region.clone()))
            .credentials_provider(credentials);
        if !config.endpoint.is_empty() {
            builder = builder
                .endpoint_url(&config.endpoint)
                .force_path_style(true);
        }
        Ok(Self {
            client: Client::from_conf(builder.build()),
            bucket: config.bucket.clone(),
        })
    }

    /// Fails with a clear message when the media bucket is missing or unreachable.
    pub async fn check_bucket(&self) -> anyhow::Result<()> {
        self.client
            .head_bucket()
            .bucket(&self.bucket)
            .send()
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "S3 bucket {} is not reachable: {}",
                    self.bucket,
                    aws_sdk_s3::error::DisplayErrorContext(e)
                )
            })?;
        tracing::info!(bucket = %self.bucket, "media bucket reachable");
        Ok(())
    }
}
