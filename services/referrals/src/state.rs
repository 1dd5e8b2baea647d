//! What every call of the referrals service can reach.

use std::sync::Arc;

use evidentia_common::{mailer::Mailer, sms::SmsSender};
use redis::aio::ConnectionManager;
use sqlx::PgPool;

use crate::config::Limits;

#[derive(Clone)]
pub struct ReferralsState {
    pub pool: PgPool,
    pub redis: ConnectionManager,
    pub mailer: Arc<dyn Mailer>,
    pub sms: Arc<dyn SmsSender>,
    pub limits: Limits,
    pub public_base_url: String,
}
