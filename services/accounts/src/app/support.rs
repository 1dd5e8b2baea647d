//! The contact-us form: a visitor's message reaches support by e-mail. Anyone may send one;
//! each client address (or, without one, each sender address) may send a few per hour.

use evidentia_common::{mailer::Mailer, ratelimit};
use redis::aio::ConnectionManager;

use crate::{domain::support::ContactMessage, error::AccountsError};

/// Where messages go and how many one sender may send per hour.
#[derive(Debug, Clone, Copy)]
pub struct Support<'a> {
    pub email: &'a str,
    pub messages_per_hour: u32,
}

/// Mails the message to the support address, unless the client has sent too many this hour.
#[tracing::instrument(skip_all)]
pub async fn send(
    redis: &ConnectionManager,
    mailer: &dyn Mailer,
    support: Support<'_>,
    message: &ContactMessage,
    client_ip: Option<&str>,
) -> Result<(), AccountsError> {
    let sender = client_ip.unwrap_or_else(|| message.email.as_str());
    let key = format!("accounts:contact:{sender}");
    if let ratelimit::Verdict::Refused { retry_after_secs } =
        ratelimit::hit(redis, &key, support.messages_per_hour, 3600).await?
    {
        return Err(AccountsError::ContactRateLimited { retry_after_secs });
    }
    let body = format!(
        "From: {} <{}>\nClient address: {}\nSubject: {}\n\n{}\n",
        message.name,
        message.email.as_str(),
        client_ip.unwrap_or("unknown"),
        message.subject,
        message.message,
    );
    let subject = format!("Contact us: {}", message.subject);
    mailer.send(support.email, &subject, &body).await?;
    tracing::info!("contact message sent to support");
    Ok(())
}
