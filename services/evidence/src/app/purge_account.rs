//! A deleted account's grace period ended (accounts' AccountPurged): every folder, item and file
//! of the user goes, with their storage usage. The objects are removed as the rows go; a
//! redelivery finds nothing left. Nothing is paused at `AccountDeleted`: the files are served
//! only to their signed-in owner, whose sessions ended with the deletion.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::AccountPurged;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::folders,
    storage::MediaStore,
    store::{self, usage},
};

pub struct PurgeOnAccountPurged {
    pub store: Arc<MediaStore>,
}

#[async_trait]
impl Handler<AccountPurged> for PurgeOnAccountPurged {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountPurged,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let owner = Uuid::parse_str(&event.user_id)?;
        let found = store::folders::ids_of_owner(conn, owner).await?;
        let mut objects = Vec::new();
        for id in &found {
            objects.extend(folders::remove(conn, owner, *id).await?);
        }
        usage::delete(conn, owner).await?;
        self.store.remove_all(objects).await;
        tracing::info!(user.id = %owner, folders = found.len(), "purged the user's evidence");
        Ok(())
    }
}
