//! Integrity: on `ItemUploaded` the stored object is streamed through SHA-256 and compared with
//! what the device declared; the item becomes verified (and counts towards the owner's usage) or
//! rejected with the reason, and the outcome is published.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::{
    consumer::{EventMeta, Handler},
    outbox,
};
use evidentia_proto::events::v1::{ItemRejected, ItemUploaded, ItemVerified};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::storage::MediaStore;

pub struct VerifyOnUpload {
    pub store: Arc<MediaStore>,
}

/// Why a stored object does not match its declaration, if it does not.
pub fn mismatch(
    declared_size: i64,
    declared_sha256: &str,
    size: i64,
    sha256: &str,
) -> Option<String> {
    if size != declared_size {
        Some(format!(
            "The stored file has {size} bytes; the device declared {declared_size}."
        ))
    } else if sha256 != declared_sha256 {
        Some("The stored file's SHA-256 does not match the one computed on the device.".to_owned())
    } else {
        None
    }
}

#[async_trait]
impl Handler<ItemUploaded> for VerifyOnUpload {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: ItemUploaded,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let id = Uuid::parse_str(&event.item_id)?;
        let status: Option<String> =
            sqlx::query_scalar("SELECT status FROM items WHERE id = $1 FOR UPDATE")
                .bind(id)
                .fetch_optional(&mut *conn)
                .await?;
        if status.as_deref() != Some("uploaded") {
            return Ok(()); // deleted meanwhile, or already decided
        }
        let digest = self.store.digest(&event.object_key).await?;
        match mismatch(event.file_size, &event.sha256, digest.size, &digest.sha256) {
            None => {
                sqlx::query("UPDATE items SET status = 'verified', verified_at = now(), updated_at = now() WHERE id = $1")
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query(
                    "INSERT INTO storage_usage (user_id, file_count, used_bytes) VALUES ($1, 1, $2) \
                     ON CONFLICT (user_id) DO UPDATE SET file_count = storage_usage.file_count + 1, \
                     used_bytes = storage_usage.used_bytes + $2, updated_at = now()",
                )
                .bind(Uuid::parse_str(&event.owner_id)?)
                .bind(event.file_size)
                .execute(&mut *conn)
                .await?;
                outbox::enqueue(
                    conn,
                    &ItemVerified {
                        item_id: event.item_id,
                        folder_id: event.folder_id,
                        owner_id: event.owner_id,
                        file_size: event.file_size,
                    },
                )
                .await?;
                tracing::info!(item.id = %id, "item verified");
            }
            Some(reason) => {
                sqlx::query("UPDATE items SET status = 'rejected', rejection_reason = $2, updated_at = now() WHERE id = $1")
                    .bind(id)
                    .bind(&reason)
                    .execute(&mut *conn)
                    .await?;
                outbox::enqueue(
                    conn,
                    &ItemRejected {
                        item_id: event.item_id,
                        folder_id: event.folder_id,
                        owner_id: event.owner_id,
                        reason: reason.clone(),
                    },
                )
                .await?;
                tracing::warn!(item.id = %id, %reason, "item rejected");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mismatch_names_what_differs() {
        let sha = "a".repeat(64);
        assert_eq!(mismatch(10, &sha, 10, &sha), None);
        assert!(mismatch(10, &sha, 9, &sha).is_some_and(|r| r.contains("9 bytes")));
        assert!(mismatch(10, &sha, 10, &"b".repeat(64)).is_some_and(|r| r.contains("SHA-256")));
    }
}
