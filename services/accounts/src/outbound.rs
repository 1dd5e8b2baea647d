//! The systems accounts reaches a person through: e-mail and SMS, each behind its trait in
//! `evidentia_common` (SMTP and an HTTP provider in production, the local stack's sinks here).

use evidentia_common::{mailer::Mailer, sms::SmsSender};

use crate::domain::{Channel, Destination};

/// The ways a message can go, borrowed from the state for one call.
#[derive(Clone, Copy)]
pub struct Messengers<'a> {
    pub mailer: &'a dyn Mailer,
    pub sms: &'a dyn SmsSender,
}

impl Messengers<'_> {
    /// Sends `text` to `to`: by e-mail under `subject`, or by SMS.
    pub async fn deliver(&self, to: &Destination, subject: &str, text: &str) -> anyhow::Result<()> {
        match to.channel {
            Channel::Email => self.mailer.send(&to.address, subject, text).await,
            Channel::Sms => self.sms.send(&to.address, text).await,
        }
    }
}
