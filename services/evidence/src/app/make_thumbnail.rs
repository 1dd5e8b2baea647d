//! Thumbnails, made asynchronously on `ItemUploaded`: images are scaled down, videos get a
//! poster frame (ffmpeg reads the object through a presigned GET, so the video never passes
//! through our memory); either is a JPEG beside the original (`<key>.thumbnail.jpg`) that the
//! browser reads through a short-lived presigned GET. No row is locked while they are made.

use std::{sync::Arc, time::Duration};

use evidentia_common::handler;
use evidentia_proto::events::v1::ItemUploaded;
use uuid::Uuid;

use crate::{
    storage::MediaStore,
    store::items,
    thumbnails::{MAX_IMAGE_BYTES, PosterFrames, thumbnail},
};

pub struct ThumbnailOnUpload {
    pub store: Arc<MediaStore>,
    pub posters: Arc<dyn PosterFrames>,
}

/// A presigned GET for ffmpeg lives this long (it reads only the start of the video).
const POSTER_READ_TTL: Duration = Duration::from_secs(900);

handler!(ThumbnailOnUpload, ItemUploaded, |handler, conn, event| {
    let made = match event.media_type.as_str() {
        "image" if event.file_size <= MAX_IMAGE_BYTES => {
            let bytes = handler.store.read(&event.object_key).await?;
            tokio::task::spawn_blocking(move || thumbnail(&bytes)).await??
        }
        "video" => {
            let url = handler
                .store
                .presign_get(&event.object_key, POSTER_READ_TTL)
                .await?;
            handler.posters.poster(&url).await?
        }
        _ => return Ok(()),
    };
    let Some(jpeg) = made else {
        tracing::info!(item.id = %event.item_id, "not a decodable image or video; no thumbnail");
        return Ok(());
    };
    let key = format!("{}.thumbnail.jpg", event.object_key);
    handler.store.put(&key, jpeg, "image/jpeg").await?;
    let recorded = items::set_thumbnail(
        conn,
        Uuid::parse_str(&event.item_id)?,
        &key,
        &event.object_key,
    )
    .await?;
    if !recorded {
        // Deleted or retaken meanwhile: this thumbnail belongs to nothing.
        handler.store.delete(&key).await?;
    }
    Ok(())
});
