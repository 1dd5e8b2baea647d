//! Outgoing e-mail: one trait, one real implementation (SMTP through lettre). Locally the SMTP
//! sink of `./dev up` receives the messages.

use async_trait::async_trait;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::Mailbox};
use secrecy::{ExposeSecret, SecretString};

#[async_trait]
pub trait Mailer: Send + Sync + 'static {
    async fn send(&self, to: &str, subject: &str, body: &str) -> anyhow::Result<()>;
}

pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    /// `url` is lettre's SMTP URL: `smtp://host:port` locally, `smtps://user:pass@host` in production.
    pub fn new(url: &SecretString, from: &str) -> anyhow::Result<Self> {
        Ok(Self {
            transport: AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())?.build(),
            from: from.parse()?,
        })
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    #[tracing::instrument(skip_all, fields(mail.subject = subject))]
    async fn send(&self, to: &str, subject: &str, body: &str) -> anyhow::Result<()> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(to.parse()?)
            .subject(subject)
            .body(body.to_owned())?;
        self.transport.send(message).await?;
        Ok(())
    }
}
