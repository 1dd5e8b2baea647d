//! What every request handler and background task of sharing can reach.

use std::{path::PathBuf, sync::Arc, time::Duration};

use redis::aio::ConnectionManager;
use sqlx::PgPool;
use tokio::sync::Notify;

use crate::{
    app::links::Links,
    outbound::{CopyStore, Evidence, Messengers, Payments},
};

/// Limits and lifetimes, from the configuration.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How long a checked code's access token opens the share.
    pub access_token_ttl: Duration,
    pub code_ttl: Duration,
    pub code_tries: i32,
    /// Codes sent to one recipient per hour, and by one client address per hour.
    pub code_sends_per_recipient: u32,
    pub code_sends_per_client: u32,
    /// Verification lookups per client address per minute.
    pub verifications_per_client: u32,
    pub ffmpeg: PathBuf,
    /// Where copies are rendered (temporary files, removed after each copy).
    pub work_dir: PathBuf,
    pub render_attempts: i32,
    /// Chat messages a recipient's access token may send per minute.
    pub chat_messages_per_token: u32,
    /// How long a message waits unread before its reader counts as away and is e-mailed.
    pub chat_away_after: Duration,
    /// How often the chat notifier looks for readers who are away.
    pub chat_notify_every: Duration,
}

#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub redis: ConnectionManager,
    pub evidence: Arc<dyn Evidence>,
    pub payments: Arc<dyn Payments>,
    pub copies: Arc<dyn CopyStore>,
    pub messengers: Messengers,
    pub links: Links,
    pub settings: Arc<Settings>,
    /// Wakes the renderer and the sender when a share is paid.
    pub work: Arc<Notify>,
}
