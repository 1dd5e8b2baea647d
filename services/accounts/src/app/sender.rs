//! Messages to a person (codes, usernames, invites): bounded, then delivered. What one
//! destination, one client address and everyone together may cost is limited, since SMS is paid
//! and a flood of mail is abuse.

use evidentia_common::ratelimit;
use redis::aio::ConnectionManager;

use crate::{
    config::Limits,
    domain::{Destination, mailbox},
    error::AccountsError,
    outbound::Messengers,
};

/// What sending a message needs: the limits, the counters in Redis and the messengers.
#[derive(Clone, Copy)]
pub struct Sender<'a> {
    pub redis: &'a ConnectionManager,
    pub limits: &'a Limits,
    pub messengers: Messengers<'a>,
}

impl Sender<'_> {
    /// Counts one more message to `to`, or refuses it: per client address whatever the
    /// destinations, per destination (an e-mail's `+tag` variants are one mailbox), and in all.
    pub async fn limit(&self, to: &Destination, client_ip: &str) -> Result<(), AccountsError> {
        let window = self.limits.code_send_window_seconds;
        if !client_ip.is_empty() {
            let key = format!("accounts:code-send:client:{client_ip}");
            let per_client = self.limits.code_sends_per_client;
            AccountsError::limited(ratelimit::hit(self.redis, &key, per_client, window).await?)?;
        }
        let key = format!("accounts:code-send:{}", mailbox(&to.address));
        let per_destination = self.limits.code_sends_per_window;
        AccountsError::limited(ratelimit::hit(self.redis, &key, per_destination, window).await?)?;
        let total = self.limits.code_sends_total;
        AccountsError::limited(
            ratelimit::hit(self.redis, "accounts:code-send:total", total, window).await?,
        )
    }

    /// Sends `text` to `to`, by e-mail or SMS.
    pub async fn deliver(
        &self,
        to: &Destination,
        subject: &str,
        text: &str,
    ) -> Result<(), AccountsError> {
        self.messengers.deliver(to, subject, text).await?;
        Ok(())
    }
}
