//! Outgoing text messages: one trait, a real HTTP provider (Twilio's Messages API shape: a form
//! POST of To, From and Body with basic authentication) for production, and a directory sink that
//! keeps one file per message for the local stack and the tests (the carrier cannot run here).

use std::path::PathBuf;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};

use crate::config::SmsConfig;

#[async_trait]
pub trait SmsSender: Send + Sync + 'static {
    /// Sends `body` to `to`, an E.164 number such as `+15551234567`.
    async fn send(&self, to: &str, body: &str) -> anyhow::Result<()>;
}

pub fn from_config(config: &SmsConfig) -> anyhow::Result<std::sync::Arc<dyn SmsSender>> {
    Ok(match config {
        SmsConfig::Files { dir } => std::sync::Arc::new(FileSms::new(dir)),
        SmsConfig::Http {
            url,
            username,
            password,
            from,
        } => std::sync::Arc::new(HttpSms::new(url, username, password.clone(), from)?),
    })
}

/// One `<time>-<id>.txt` per message: `To: <number>`, a blank line, the body.
pub struct FileSms {
    dir: PathBuf,
}

impl FileSms {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }
}

#[async_trait]
impl SmsSender for FileSms {
    #[tracing::instrument(skip_all)]
    async fn send(&self, to: &str, body: &str) -> anyhow::Result<()> {
        tokio::fs::create_dir_all(&self.dir).await?;
        let name = format!(
            "{}-{}.txt",
            chrono::Utc::now().format("%Y%m%dT%H%M%S%.6f"),
            uuid::Uuid::now_v7().simple()
        );
        // Written under a temporary name and renamed, so a reader never sees half a message.
        let partial = self.dir.join(format!(".{name}.part"));
        tokio::fs::write(&partial, format!("To: {to}\n\n{body}\n")).await?;
        tokio::fs::rename(&partial, self.dir.join(name)).await?;
        Ok(())
    }
}

pub struct HttpSms {
    http: reqwest::Client,
    url: String,
    username: String,
    password: SecretString,
    from: String,
}

impl HttpSms {
    pub fn new(
        url: &str,
        username: &str,
        password: SecretString,
        from: &str,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()?,
            url: url.to_owned(),
            username: username.to_owned(),
            password,
            from: from.to_owned(),
        })
    }
}

#[async_trait]
impl SmsSender for HttpSms {
    #[tracing::instrument(skip_all)]
    async fn send(&self, to: &str, body: &str) -> anyhow::Result<()> {
        let form = [("To", to), ("From", self.from.as_str()), ("Body", body)];
        let encoded = form
            .iter()
            .map(|(k, v)| format!("{k}={}", urlencode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let response = self
            .http
            .post(&self.url)
            .basic_auth(&self.username, Some(self.password.expose_secret()))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(encoded)
            .send()
            .await?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            anyhow::bail!("SMS provider answered {status}: {text}");
        }
        Ok(())
    }
}

fn urlencode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char);
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_values_are_percent_encoded() {
        assert_eq!(urlencode("+1 555&x=é"), "%2B1%20555%26x%3D%C3%A9");
    }

    #[tokio::test]
    async fn the_file_sink_keeps_one_file_per_message() {
        let dir = std::env::temp_dir().join(format!("sms-{}", uuid::Uuid::now_v7()));
        let sms = FileSms::new(&dir);
        sms.send("+15551234567", "first").await.expect("send");
        sms.send("+15551234567", "second").await.expect("send");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .collect();
        names.sort();
        assert_eq!(names.len(), 2);
        let first = std::fs::read_to_string(&names[0]).expect("read");
        assert_eq!(first, "To: +15551234567\n\nfirst\n");
        std::fs::remove_dir_all(dir).expect("clean");
    }
}
