//! The media store: S3 (SeaweedFS locally, AWS S3 in production, by configuration alone). Bytes
//! never pass through our services: the browser uploads with presigned requests, and the service
//! only streams an object back to check its size and SHA-256.

use std::time::Duration;

use aws_sdk_s3::{
    Client,
    presigning::PresigningConfig,
    types::{CompletedMultipartUpload, CompletedPart},
};
use base64::{Engine, engine::general_purpose::STANDARD};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use secrecy::ExposeSecret;
use sha2::{Digest, Sha256};

pub use evidentia_common::s3::S3Config;

#[derive(Debug, Clone)]
pub struct MediaStore {
    client: Client,
    config: S3Config,
}

/// A presigned POST: post `fields` and then the file (as `file`) to `url`.
#[derive(Debug, Clone)]
pub struct PresignedPost {
    pub url: String,
    pub fields: Vec<(String, String)>,
    pub expires_at: DateTime<Utc>,
}

/// What the store holds of an object: its size and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest256 {
    pub size: i64,
    pub sha256: String,
}

type HmacSha256 = Hmac<Sha256>;

fn hmac(key: &[u8], data: &str) -> Vec<u8> {
    // HMAC takes keys of any length.
    let mut mac = HmacSha256::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
    mac.update(data.as_bytes());
    mac.finalize().into_bytes().to_vec()
}

impl MediaStore {
    pub async fn connect(config: &S3Config) -> anyhow::Result<Self> {
        Ok(Self {
            client: config.client(),
            config: config.clone(),
        })
    }

    /// Fails with a clear message when the media bucket is missing or unreachable.
    pub async fn check_bucket(&self) -> anyhow::Result<()> {
        self.client
            .head_bucket()
            .bucket(&self.config.bucket)
            .send()
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "S3 bucket {} is not reachable: {}",
                    self.config.bucket,
                    aws_sdk_s3::error::DisplayErrorContext(e)
                )
            })?;
        tracing::info!(bucket = %self.config.bucket, "media bucket reachable");
        Ok(())
    }

    fn bucket_url(&self) -> String {
        if self.config.endpoint.is_empty() {
            format!(
                "https://{}.s3.{}.amazonaws.com/",
                self.config.bucket, self.config.region
            )
        } else {
            format!(
                "{}/{}/",
                self.config.endpoint.trim_end_matches('/'),
                self.config.bucket
            )
        }
    }

    /// A POST policy (SigV4) for exactly `key`, `content_type` and `size` bytes.
    pub fn presigned_post(
        &self,
        key: &str,
        content_type: &str,
        size: i64,
        ttl: Duration,
    ) -> anyhow::Result<PresignedPost> {
        let now = Utc::now();
        let expires_at = now + chrono::Duration::from_std(ttl)?;
        let date = now.format("%Y%m%d").to_string();
        let amz_date = now.format("%Y%m%dT%H%M%SZ").to_string();
        let credential = format!(
            "{}/{date}/{}/s3/aws4_request",
            self.config.access_key_id, self.config.region
        );
        let policy = serde_json::json!({
            "expiration": expires_at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
            "conditions": [
                { "bucket": self.config.bucket },
                ["eq", "$key", key],
                ["eq", "$Content-Type", content_type],
                ["content-length-range", size, size],
                { "x-amz-algorithm": "AWS4-HMAC-SHA256" },
                { "x-amz-credential": credential },
                { "x-amz-date": amz_date },
            ],
        });
        let policy = STANDARD.encode(policy.to_string());
        let secret = format!("AWS4{}", self.config.secret_access_key.expose_secret());
        let key_date = hmac(secret.as_bytes(), &date);
        let key_region = hmac(&key_date, &self.config.region);
        let key_service = hmac(&key_region, "s3");
        let signing_key = hmac(&key_service, "aws4_request");
        let signature = hex::encode(hmac(&signing_key, &policy));
        Ok(PresignedPost {
            url: self.bucket_url(),
            fields: vec![
                ("key".into(), key.into()),
                ("Content-Type".into(), content_type.into()),
                ("x-amz-algorithm".into(), "AWS4-HMAC-SHA256".into()),
                ("x-amz-credential".into(), credential),
                ("x-amz-date".into(), amz_date),
                ("policy".into(), policy),
                ("x-amz-signature".into(), signature),
            ],
            expires_at,
        })
    }

    pub async fn create_multipart(&self, key: &str, content_type: &str) -> anyhow::Result<String> {
        let created = self
            .client
            .create_multipart_upload()
            .bucket(&self.config.bucket)
            .key(key)
            .content_type(content_type)
            .send()
            .await?;
        created
            .upload_id()
            .map(str::to_owned)
            .ok_or_else(|| anyhow::anyhow!("S3 returned no upload id"))
    }

    pub async fn presign_part(
        &self,
        key: &str,
        upload_id: &str,
        part_number: i32,
        ttl: Duration,
    ) -> anyhow::Result<String> {
        let request = self
            .client
            .upload_part()
            .bucket(&self.config.bucket)
            .key(key)
            .upload_id(upload_id)
            .part_number(part_number)
            .presigned(PresigningConfig::expires_in(ttl)?)
            .await?;
        Ok(request.uri().to_owned())
    }

    /// The parts S3 holds for an upload, in order, with their ETags.
    pub async fn uploaded_parts(
        &self,
        key: &str,
        upload_id: &str,
    ) -> anyhow::Result<Vec<(i32, String)>> {
        let mut parts = Vec::new();
        let mut marker: Option<String> = None;
        loop {
            let page = self
                .client
                .list_parts()
                .bucket(&self.config.bucket)
                .key(key)
                .upload_id(upload_id)
                .set_part_number_marker(marker.clone())
                .send()
                .await?;
            for part in page.parts() {
                if let (Some(number), Some(etag)) = (part.part_number(), part.e_tag()) {
                    parts.push((number, etag.to_owned()));
                }
            }
            match (page.is_truncated(), page.next_part_number_marker()) {
                (Some(true), Some(next)) => marker = Some(next.to_owned()),
                _ => break,
            }
        }
        parts.sort_by_key(|(number, _)| *number);
        Ok(parts)
    }

    pub async fn complete_multipart(
        &self,
        key: &str,
        upload_id: &str,
        parts: &[(i32, String)],
    ) -> anyhow::Result<()> {
        let completed = CompletedMultipartUpload::builder()
            .set_parts(Some(
                parts
                    .iter()
                    .map(|(number, etag)| {
                        CompletedPart::builder()
                            .part_number(*number)
                            .e_tag(etag)
                            .build()
                    })
                    .collect(),
            ))
            .build();
        self.client
            .complete_multipart_upload()
            .bucket(&self.config.bucket)
            .key(key)
            .upload_id(upload_id)
            .multipart_upload(completed)
            .send()
            .await?;
        Ok(())
    }

    pub async fn abort_multipart(&self, key: &str, upload_id: &str) -> anyhow::Result<()> {
        self.client
            .abort_multipart_upload()
            .bucket(&self.config.bucket)
            .key(key)
            .upload_id(upload_id)
            .send()
            .await?;
        Ok(())
    }

    /// The stored object's size, or `None` when there is no such object.
    pub async fn object_size(&self, key: &str) -> anyhow::Result<Option<i64>> {
        match self
            .client
            .head_object()
            .bucket(&self.config.bucket)
            .key(key)
            .send()
            .await
        {
            Ok(head) => Ok(Some(head.content_length().unwrap_or(0))),
            Err(err) if err.as_service_error().is_some_and(|e| e.is_not_found()) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// Streams the object through SHA-256: memory stays flat whatever its size.
    pub async fn digest(&self, key: &str) -> anyhow::Result<Digest256> {
        let object = self
            .client
            .get_object()
            .bucket(&self.config.bucket)
            .key(key)
            .send()
            .await?;
        let mut body = object.body;
        let mut hasher = Sha256::new();
        let mut size = 0i64;
        while let Some(chunk) = body.try_next().await? {
            size += i64::try_from(chunk.len())?;
            hasher.update(&chunk);
        }
        Ok(Digest256 {
            size,
            sha256: hex::encode(hasher.finalize()),
        })
    }

    /// The object's body as a stream of chunks, for objects of any size.
    pub async fn stream(&self, key: &str) -> anyhow::Result<aws_sdk_s3::primitives::ByteStream> {
        let object = self
            .client
            .get_object()
            .bucket(&self.config.bucket)
            .key(key)
            .send()
            .await?;
        Ok(object.body)
    }

    /// The object's first `n` bytes (fewer when it is shorter), for recognising its format.
    pub async fn head(&self, key: &str, n: u64) -> anyhow::Result<Vec<u8>> {
        let object = self
            .client
            .get_object()
            .bucket(&self.config.bucket)
            .key(key)
            .range(format!("bytes=0-{}", n.saturating_sub(1)))
            .send()
            .await?;
        Ok(object.body.collect().await?.into_bytes().to_vec())
    }

    /// The whole object (for small objects only: thumbnails are made from images).
    pub async fn read(&self, key: &str) -> anyhow::Result<Vec<u8>> {
        let object = self
            .client
            .get_object()
            .bucket(&self.config.bucket)
            .key(key)
            .send()
            .await?;
        Ok(object.body.collect().await?.into_bytes().to_vec())
    }

    pub async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> anyhow::Result<()> {
        self.client
            .put_object()
            .bucket(&self.config.bucket)
            .key(key)
            .content_type(content_type)
            .body(bytes.into())
            .send()
            .await?;
        Ok(())
    }

    /// A presigned GET of `key`, to open or download it in the browser.
    pub async fn presign_get(&self, key: &str, ttl: Duration) -> anyhow::Result<String> {
        let request = self
            .client
            .get_object()
            .bucket(&self.config.bucket)
            .key(key)
            .presigned(PresigningConfig::expires_in(ttl)?)
            .await?;
        Ok(request.uri().to_owned())
    }

    pub async fn delete(&self, key: &str) -> anyhow::Result<()> {
        self.client
            .delete_object()
            .bucket(&self.config.bucket)
            .key(key)
            .send()
            .await?;
        Ok(())
    }

    /// Removes objects (and aborts unfinished multipart uploads) whose rows are already gone or
    /// changed; a failure leaves an orphan object, logged, never an error for the user.
    pub async fn remove_all(&self, objects: Vec<(String, Option<String>)>) {
        for (key, upload_id) in objects {
            let result = match upload_id {
                Some(upload_id) => self.abort_multipart(&key, &upload_id).await,
                None => self.delete(&key).await,
            };
            if let Err(err) = result {
                tracing::warn!(object = %key, error = ?err, "could not remove an object");
            }
        }
    }
}

/// Readiness: the media bucket answers (files can be neither stored nor served without it).
impl evidentia_common::service::Probe for MediaStore {
    fn name(&self) -> &'static str {
        "s3"
    }

    fn ready(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send + '_>> {
        Box::pin(async move {
            self.client
                .head_bucket()
                .bucket(&self.config.bucket)
                .send()
                .await
                .is_ok()
        })
    }
}
