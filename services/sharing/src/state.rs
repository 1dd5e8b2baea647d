//! What every request handler and background task of sharing can reach.

use std::{
    path::PathBuf,
    sync::{
        Arc,
        atomic::{AtomicI64, Ordering},
    },
    time::Duration,
};

use chrono::{DateTime, Utc};
use evidentia_common::signing::SigningKeys;

use redis::aio::ConnectionManager;
use sqlx::PgPool;
use tokio::sync::Notify;

use crate::{
    app::links::Links,
    outbound::{CopyStore, Evidence, Messengers, OrganizationFolders, Payments},
    render::provenance::Provenance,
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
    /// Executors who must ask before a futuregram without a date is released (at most as many
    /// as have not declined).
    pub futuregram_quorum: u32,
    /// After executors ask, how long the owner has to cancel before the release.
    pub futuregram_wait: Duration,
    /// Before a dated release: when executors are reminded, and may stop it.
    pub futuregram_veto_window: Duration,
    /// How long a released futuregram's view link works (a fresh one can be mailed).
    pub futuregram_view_ttl: Duration,
    /// How often the futuregram scheduler looks for work.
    pub futuregram_tick: Duration,
    /// The futuregram scheduler's time.
    pub clock: Clock,
    /// Files an organization's contribution link may register per hour, and one client address.
    pub contribution_uploads_per_link: u32,
    pub contribution_uploads_per_client: u32,
    /// How long a contributor's token works (never past its link's expiry).
    pub contributor_token_ttl: Duration,
    /// How often custody-log heads that moved are signed (at least daily).
    pub custody_head_every: Duration,
    /// How long a link to download an evidence packet works.
    pub packet_link_ttl: Duration,
}

/// The time as the futuregram scheduler sees it: the system's, moved forward by an offset
/// that only tests change (clones share the offset).
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    pub fn system() -> Self {
        Self::default()
    }

    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::milliseconds(self.offset_ms.load(Ordering::Relaxed))
    }

    /// Moves this clock (and its clones) forward.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub redis: ConnectionManager,
    pub evidence: Arc<dyn Evidence>,
    pub payments: Arc<dyn Payments>,
    pub copies: Arc<dyn CopyStore>,
    pub organization_folders: Arc<dyn OrganizationFolders>,
    pub messengers: Messengers,
    pub links: Links,
    /// Signs custody-log heads and packet manifests.
    pub keys: SigningKeys,
    /// Signs the C2PA manifests of authenticated copies.
    pub provenance: Provenance,
    pub settings: Arc<Settings>,
    /// Wakes the renderer and the sender when a share is paid.
    pub work: Arc<Notify>,
}
