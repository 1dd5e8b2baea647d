//! A deleted account's grace period ended (accounts' AccountPurged): every folder, item and file
//! of the user goes, with their storage usage. The objects are removed as the rows go; a
//! redelivery finds nothing left. Nothing is paused at `AccountDeleted`: the files are served
//! only to their signed-in owner, whose sessions ended with the deletion.

use std::sync::Arc;

use evidentia_common::handler;
use evidentia_proto::events::v1::AccountPurged;
use uuid::Uuid;

use crate::{
    app::folders,
    storage::MediaStore,
    store::{self, usage},
};

pub struct PurgeOnAccountPurged {
    pub store: Arc<MediaStore>,
}

handler!(
    PurgeOnAccountPurged,
    AccountPurged,
    |handler, conn, event| {
        let owner = Uuid::parse_str(&event.user_id)?;
        let found = store::folders::ids_of_owner(conn, owner).await?;
        let mut objects = Vec::new();
        for id in &found {
            objects.extend(folders::remove(conn, owner, *id).await?);
        }
        usage::delete(conn, owner).await?;
        handler.store.remove_all(objects).await;
        tracing::info!(user.id = %owner, folders = found.len(), "purged the user's evidence");
        Ok(())
    }
);
