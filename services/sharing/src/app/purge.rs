//! A purged account leaves nothing here: its shares (with their deliveries, codes, tokens and
//! copies), the copies' objects, its files' custody logs with their signed heads, and its packet
//! downloads.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::AccountPurged;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{outbound::CopyStore, store::shares};

pub struct ForgetOwner {
    pub copies: Arc<dyn CopyStore>,
}

#[async_trait]
impl Handler<AccountPurged> for ForgetOwner {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountPurged,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let owner = Uuid::parse_str(&event.user_id)?;
        let keys = shares::forget_owner(conn, owner).await?;
        // Deleting an object twice is harmless, so a redelivered event may do it again.
        self.copies.delete(keys).await?;
        Ok(())
    }
}
