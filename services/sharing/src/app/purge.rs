//! A purged account leaves nothing here: its shares (with their deliveries, codes, tokens and
//! copies), the copies' objects, its files' custody logs with their signed heads, and its packet
//! downloads.

use std::sync::Arc;

use evidentia_common::handler;
use evidentia_proto::events::v1::AccountPurged;
use uuid::Uuid;

use crate::{outbound::CopyStore, store::shares};

pub struct ForgetOwner {
    pub copies: Arc<dyn CopyStore>,
}

handler!(ForgetOwner, AccountPurged, |handler, conn, event| {
    let owner = Uuid::parse_str(&event.user_id)?;
    let keys = shares::forget_owner(conn, owner).await?;
    // Deleting an object twice is harmless, so a redelivered event may do it again.
    handler.copies.delete(keys).await?;
    Ok(())
});
