//! Integrity: on `ItemUploaded` the stored object is streamed through SHA-256 and compared with
//! what the device declared; the item becomes verified (counts towards the owner's usage, and
//! gets its signed receipt) or rejected with the reason, and the outcome is published. A verified retake deletes the file it
//! replaces; a rejected one keeps it.

use std::sync::Arc;

use evidentia_common::{handler, outbox};
use evidentia_proto::events::v1::{ItemRejected, ItemUploaded, ItemVerified};
use uuid::Uuid;

use crate::{
    domain::MediaType,
    receipts::ReceiptKeys,
    sniff,
    storage::MediaStore,
    store::{items, usage},
};

pub struct VerifyOnUpload {
    pub store: Arc<MediaStore>,
    pub receipts: ReceiptKeys,
}

/// Why a contribution is refused by what its bytes are.
pub const NOT_THAT_MEDIUM: &str = "The file's content is not the kind of file it was sent as.";

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

handler!(VerifyOnUpload, ItemUploaded, |handler, conn, event| {
    let id = Uuid::parse_str(&event.item_id)?;
    let waiting =
        |row: &items::Uploaded| row.status == "uploaded" && row.object_key == event.object_key;
    let Some(row) = items::uploaded(conn, id).await?.filter(waiting) else {
        return Ok(()); // deleted or retaken meanwhile, or already decided
    };
    // The object is read with the item unlocked (a large file takes a while to stream);
    // the item is locked, and checked again, only for the verdict's write.
    let digest = handler.store.digest(&event.object_key).await?;
    let mut verdict = mismatch(event.file_size, &event.sha256, digest.size, &digest.sha256);
    // An anonymous contributor's file must be what it claims by its content too.
    if verdict.is_none()
        && row.contributor_id.is_some()
        && let Some(media) = MediaType::from_db(&row.media_type)
    {
        let head = handler
            .store
            .head(&event.object_key, sniff::HEAD_BYTES)
            .await?;
        if !sniff::is(media, &head) {
            verdict = Some(NOT_THAT_MEDIUM.to_owned());
        }
    }
    let Some(row) = items::lock_uploaded(conn, id).await?.filter(waiting) else {
        return Ok(()); // deleted or retaken while it was read
    };
    match verdict {
        None => {
            items::mark_verified(conn, id).await?;
            let facts = items::receipt_facts(conn, id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the item just verified is not verified"))?;
            items::set_receipt(conn, id, &handler.receipts.sign(&facts)).await?;
            // A verified retake replaces the previous file in the usage rather than adding one.
            let (files, bytes) = match &row.previous_object_key {
                Some(_) => (0, event.file_size - row.previous_file_size.unwrap_or(0)),
                None => (1, event.file_size),
            };
            usage::add_verified(conn, Uuid::parse_str(&event.owner_id)?, files, bytes).await?;
            // The replaced file and its thumbnail go now (deleting twice is harmless, so a
            // redelivery after a failed commit does no harm).
            for key in [&row.previous_object_key, &row.previous_thumbnail_key]
                .into_iter()
                .flatten()
            {
                handler.store.delete(key).await?;
            }
            outbox::enqueue(
                conn,
                &ItemVerified {
                    item_id: event.item_id,
                    folder_id: event.folder_id,
                    owner_id: event.owner_id,
                    file_size: event.file_size,
                    contributor_id: row
                        .contributor_id
                        .map(|id| id.to_string())
                        .unwrap_or_default(),
                    contributor_email: row.contributor_email.clone().unwrap_or_default(),
                },
            )
            .await?;
            tracing::info!(item.id = %id, "item verified");
        }
        Some(reason) => {
            items::mark_rejected(conn, id, &reason).await?;
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
});

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
