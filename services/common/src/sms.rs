//! Outgoing text messages: one trait, a real HTTP provider (Twilio's Messages API shape: a form
//! POST of To, From and Body with basic authentication) for production, and a directory sink that
//! keeps one file per message for the local stack and the tests (the carrier cannot run here).

use std::path::PathBuf;

use async_trait::async_trait;
use secrecy::{ExposeSecret, SecretString};

use crate::config::{ConfigError, env_or, secret_or};

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

impl SmsConfig {
    /// `SMS_PROVIDER` (`files` or `http`) and the provider's own variables.
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(match env_or::<String>("SMS_PROVIDER", "files")?.as_str() {
            "http" => Self::Http {
                url: required("SMS_HTTP_URL")?,
                username: required("SMS_HTTP_USERNAME")?,
                password: secret_or("SMS_HTTP_PASSWORD", "")?,
                from: required("SMS_FROM")?,
            },
            "files" => Self::Files {
                dir: env_or("SMS_DIR", ".dev/sms")?,
            },
            other => {
                return Err(ConfigError {
                    name: "SMS_PROVIDER".to_owned(),
                    value: other.to_owned(),
                    reason: "must be 'files' or 'http'".to_owned(),
                });
            }
        })
    }
}

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

    /// A one-request HTTP server answering `status`; returns what it received.
    async fn provider(status: &'static str) -> (String, tokio::task::JoinHandle<String>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!(
            "http://{}/Messages.json",
            listener.local_addr().expect("addr")
        );
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let mut received = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = socket.read(&mut buf).await.expect("read");
                received.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&received).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text
                        .lines()
                        .find_map(|l| {
                            l.to_lowercase()
                                .strip_prefix("content-length: ")
                                .map(str::to_owned)
                        })
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if received.len() >= end + 4 + length || n == 0 {
                        break;
                    }
                }
            }
            let answer =
                format!("HTTP/1.1 {status}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{{}}");
            socket.write_all(answer.as_bytes()).await.expect("write");
            String::from_utf8_lossy(&received).to_string()
        });
        (url, server)
    }

    #[tokio::test]
    async fn the_http_provider_posts_the_form_with_basic_authentication() {
        let (url, server) = provider("201 Created").await;
        let sms = HttpSms::new(&url, "AC123", SecretString::from("s3cret"), "+15550000000")
            .expect("client");
        sms.send("+15551234567", "Code 123 & more")
            .await
            .expect("sent");
        let request = server.await.expect("server");
        assert!(
            request.starts_with("POST /Messages.json HTTP/1.1"),
            "{request}"
        );
        // base64("AC123:s3cret")
        assert!(
            request.contains("authorization: Basic QUMxMjM6czNjcmV0"),
            "{request}"
        );
        assert!(request.contains("content-type: application/x-www-form-urlencoded"));
        assert!(
            request.ends_with("To=%2B15551234567&From=%2B15550000000&Body=Code%20123%20%26%20more")
        );
    }

    #[tokio::test]
    async fn a_refusal_by_the_provider_is_an_error() {
        let (url, server) = provider("400 Bad Request").await;
        let sms = HttpSms::new(&url, "AC123", SecretString::from("s3cret"), "+15550000000")
            .expect("client");
        let err = sms.send("+15551234567", "hi").await.expect_err("refused");
        assert!(err.to_string().contains("400"), "{err}");
        server.await.expect("server");
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
