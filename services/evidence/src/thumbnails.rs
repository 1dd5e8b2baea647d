//! Thumbnails, made asynchronously on `ItemUploaded`: images are scaled down with the `image`
//! crate into a JPEG beside the original (`<key>.thumbnail.jpg`); the browser reads it through a
//! short-lived presigned GET. Video poster frames are not made yet (see the issue note).

use std::{io::Cursor, sync::Arc};

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::ItemUploaded;
use image::{ImageFormat, imageops::FilterType};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::storage::MediaStore;

/// The longest side of a thumbnail, in pixels.
pub const THUMBNAIL_SIZE: u32 = 320;
/// Images larger than this are not decoded for a thumbnail (they keep the generic icon).
const MAX_IMAGE_BYTES: i64 = 64 * 1024 * 1024;

/// A JPEG thumbnail of `bytes`, or `None` when they are not an image we can decode.
pub fn thumbnail(bytes: &[u8]) -> anyhow::Result<Option<Vec<u8>>> {
    let Ok(decoded) = image::load_from_memory(bytes) else {
        return Ok(None);
    };
    let small = decoded
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, FilterType::Triangle)
        .to_rgb8();
    let mut out = Cursor::new(Vec::new());
    small.write_to(&mut out, ImageFormat::Jpeg)?;
    Ok(Some(out.into_inner()))
}

pub struct ThumbnailOnUpload {
    pub store: Arc<MediaStore>,
}

#[async_trait]
impl Handler<ItemUploaded> for ThumbnailOnUpload {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: ItemUploaded,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        if event.media_type != "image" || event.file_size > MAX_IMAGE_BYTES {
            return Ok(());
        }
        let bytes = self.store.read(&event.object_key).await?;
        let made = tokio::task::spawn_blocking(move || thumbnail(&bytes)).await??;
        let Some(jpeg) = made else {
            tracing::info!(item.id = %event.item_id, "not a decodable image; no thumbnail");
            return Ok(());
        };
        let key = format!("{}.thumbnail.jpg", event.object_key);
        self.store.put(&key, jpeg, "image/jpeg").await?;
        sqlx::query("UPDATE items SET thumbnail_key = $2, updated_at = now() WHERE id = $1")
            .bind(Uuid::parse_str(&event.item_id)?)
            .bind(&key)
            .execute(conn)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_image_becomes_a_small_jpeg_and_other_bytes_none() {
        let big = image::RgbImage::from_pixel(1600, 1200, image::Rgb([200, 30, 30]));
        let mut png = Cursor::new(Vec::new());
        big.write_to(&mut png, ImageFormat::Png).unwrap();
        let jpeg = thumbnail(png.get_ref()).unwrap().expect("a thumbnail");
        let back = image::load_from_memory(&jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (320, 240));
        assert_eq!(thumbnail(b"not an image").unwrap(), None);
    }
}
