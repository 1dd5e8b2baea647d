//! What every request handler of accounts can reach. A leaf: it names the systems, not the
//! domain, so any module may take a piece of it without depending on the rest.

use std::sync::Arc;

use evidentia_common::{mailer::Mailer, sms::SmsSender};
use redis::aio::ConnectionManager;
use sqlx::PgPool;

use crate::config::Config;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: PgPool,
    /// Rate limits, login backoff and the deny-list of ended sessions.
    pub redis: ConnectionManager,
    pub mailer: Arc<dyn Mailer>,
    pub sms: Arc<dyn SmsSender>,
}
