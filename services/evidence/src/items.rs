//! Evidence items and their uploads: registered with the device's size and SHA-256, uploaded by
//! the browser straight to S3 (one presigned POST, or presigned parts that a reload can resume),
//! then finished: the service records the receipt and publishes `ItemUploaded`, on which the
//! object is checked.

use std::time::Duration;

use chrono::{DateTime, Utc};
use evidentia_common::{errors::FieldError, outbox};
use evidentia_proto::events::v1::ItemUploaded;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    AppState,
    domain::{MediaType, Name},
    error::EvidenceError,
    folders,
    storage::PresignedPost,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Item {
    pub id: Uuid,
    pub folder_id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub media_type: String,
    pub mime_type: String,
    pub object_key: String,
    pub file_size: i64,
    pub sha256: String,
    pub status: String,
    pub rejection_reason: String,
    pub upload_id: Option<String>,
    pub part_size: Option<i64>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub country_code: String,
    pub duration_seconds: Option<f64>,
    pub captured_at: DateTime<Utc>,
    pub received_at: Option<DateTime<Utc>>,
    pub verified_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub thumbnail_key: Option<String>,
    pub storage_expires_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, folder_id, owner_id, name, media_type, mime_type, object_key, file_size, sha256, status, \
     rejection_reason, upload_id, part_size, latitude, longitude, city, address, country_code, duration_seconds, captured_at, \
     received_at, verified_at, created_at, thumbnail_key, \
     (SELECT f.storage_expires_at FROM folders f WHERE f.id = items.folder_id) AS storage_expires_at";

/// A capture as the device describes it.
#[derive(Debug, Clone)]
pub struct NewItem {
    pub folder_id: Uuid,
    pub name: String,
    pub media_type: Option<MediaType>,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    pub captured_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
}

/// How the browser sends the bytes.
#[derive(Debug, Clone)]
pub enum Upload {
    Single(PresignedPost),
    Multipart {
        upload_id: String,
        part_size: i64,
        part_count: i32,
    },
}

fn validate(
    item: &NewItem,
    max_bytes: i64,
) -> Result<(Name, MediaType, DateTime<Utc>), EvidenceError> {
    let mut errors = Vec::new();
    let name = Name::parse("name", &item.name)
        .map_err(|e| errors.push(e))
        .ok();
    let media = match item.media_type {
        Some(media) if media.accepts(&item.mime_type) => Some(media),
        Some(_) => {
            errors.push(FieldError::new(
                "mime_type",
                "The MIME type does not match the media type.",
            ));
            None
        }
        None => {
            errors.push(FieldError::new(
                "media_type",
                "Choose image, video or audio.",
            ));
            None
        }
    };
    if item.file_size <= 0 {
        errors.push(FieldError::new("file_size", "The file is empty."));
    } else if item.file_size > max_bytes {
        errors.push(FieldError::new("file_size", "The file is too large."));
    }
    if item.sha256.len() != 64
        || !item
            .sha256
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    {
        errors.push(FieldError::new(
            "sha256",
            "Expected the lower-case hex SHA-256 of the file.",
        ));
    }
    if item.latitude.is_some_and(|v| !(-90.0..=90.0).contains(&v)) {
        errors.push(FieldError::new(
            "latitude",
            "Latitude must be between -90 and 90.",
        ));
    }
    if item
        .longitude
        .is_some_and(|v| !(-180.0..=180.0).contains(&v))
    {
        errors.push(FieldError::new(
            "longitude",
            "Longitude must be between -180 and 180.",
        ));
    }
    if item.latitude.is_some() != item.longitude.is_some() {
        errors.push(FieldError::new(
            "latitude",
            "Send both latitude and longitude, or neither.",
        ));
    }
    if item
        .duration_seconds
        .is_some_and(|d| !(d.is_finite() && d >= 0.0))
    {
        errors.push(FieldError::new(
            "duration_seconds",
            "The duration must be zero or more seconds.",
        ));
    }
    let captured = item.captured_at.unwrap_or_else(Utc::now);
    if captured > Utc::now() + chrono::Duration::minutes(5) {
        errors.push(FieldError::new(
            "captured_at",
            "The capture time is in the future.",
        ));
    }
    match (name, media, errors.is_empty()) {
        (Some(name), Some(media), true) => Ok((name, media, captured)),
        _ => Err(EvidenceError::Invalid(errors)),
    }
}

/// `a / b` rounded up, for positive numbers.
fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The part size for `size` bytes: the configured size, grown so no upload needs over 10,000 parts.
fn part_size_for(size: i64, configured: i64) -> i64 {
    let minimum = ceil_div(size, 10_000);
    configured.max(minimum).max(5 * 1024 * 1024)
}

fn ttl(state: &AppState) -> Duration {
    Duration::from_secs(state.config.uploads.presign_ttl_seconds)
}

/// Registers a capture in the owner's folder and starts its upload.
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    state: &AppState,
    owner: Uuid,
    new: NewItem,
) -> Result<(Item, Upload), EvidenceError> {
    let (name, media, captured_at) = validate(&new, state.config.uploads.max_file_bytes)?;
    let mut conn = state.pool.acquire().await?;
    let folder = folders::get(&mut conn, owner, new.folder_id).await?;
    if folder.expired(Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    let place = match (new.latitude, new.longitude) {
        (Some(lat), Some(lon)) => state.geocoder.locate(lat, lon).await.unwrap_or_else(|err| {
            // A place name is a convenience: the capture is kept with its coordinates.
            tracing::warn!(error = ?err, "reverse geocoding failed");
            None
        }),
        _ => None,
    };
    let (city, address, country_code) =
        place.map_or_else(Default::default, |p| (p.city, p.address, p.country_code));
    let id = Uuid::now_v7();
    let key = format!("users/{owner}/folders/{}/items/{id}", folder.id);
    let uploads = &state.config.uploads;
    let (upload, upload_id, part_size) = if new.file_size <= uploads.single_upload_max_bytes {
        let post = state
            .store
            .presigned_post(&key, &new.mime_type, new.file_size, ttl(state))?;
        (Upload::Single(post), None, None)
    } else {
        let upload_id = state.store.create_multipart(&key, &new.mime_type).await?;
        let part_size = part_size_for(new.file_size, uploads.part_size_bytes);
        let part_count =
            i32::try_from(ceil_div(new.file_size, part_size)).map_err(anyhow::Error::from)?;
        (
            Upload::Multipart {
                upload_id: upload_id.clone(),
                part_size,
                part_count,
            },
            Some(upload_id),
            Some(part_size),
        )
    };
    let sql = format!(
        "INSERT INTO items (id, folder_id, owner_id, name, media_type, mime_type, object_key, file_size, sha256, \
         upload_id, part_size, latitude, longitude, duration_seconds, captured_at, city, address, country_code) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING {COLUMNS}"
    );
    let item: Item = sqlx::query_as(&sql)
        .bind(id)
        .bind(folder.id)
        .bind(owner)
        .bind(name.as_str())
        .bind(media.as_str())
        .bind(&new.mime_type)
        .bind(&key)
        .bind(new.file_size)
        .bind(&new.sha256)
        .bind(upload_id)
        .bind(part_size)
        .bind(new.latitude)
        .bind(new.longitude)
        .bind(new.duration_seconds)
        .bind(captured_at)
        .bind(&city)
        .bind(&address)
        .bind(&country_code)
        .fetch_one(&mut *conn)
        .await?;
    Ok((item, upload))
}

/// The owner's item; another user's is `NotFound`.
pub async fn get(conn: &mut PgConnection, owner: Uuid, id: Uuid) -> Result<Item, EvidenceError> {
    let sql = format!("SELECT {COLUMNS} FROM items WHERE owner_id = $1 AND id = $2");
    sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or(EvidenceError::NotFound)
}

pub async fn list(
    conn: &mut PgConnection,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<Vec<Item>, EvidenceError> {
    folders::get(conn, owner, folder_id).await?;
    let sql = format!(
        "SELECT {COLUMNS} FROM items WHERE owner_id = $1 AND folder_id = $2 ORDER BY created_at"
    );
    Ok(sqlx::query_as(&sql)
        .bind(owner)
        .bind(folder_id)
        .fetch_all(conn)
        .await?)
}

pub async fn rename(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
    name: &Name,
) -> Result<Item, EvidenceError> {
    let sql = format!(
        "UPDATE items SET name = $3, updated_at = now() WHERE owner_id = $1 AND id = $2 RETURNING {COLUMNS}"
    );
    sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .bind(name.as_str())
        .fetch_optional(conn)
        .await?
        .ok_or(EvidenceError::NotFound)
}

/// Deletes the owner's item (a verified one leaves the usage); returns it so its objects can be
/// removed from S3 after the commit.
pub async fn delete(conn: &mut PgConnection, owner: Uuid, id: Uuid) -> Result<Item, EvidenceError> {
    let sql = format!("DELETE FROM items WHERE owner_id = $1 AND id = $2 RETURNING {COLUMNS}");
    let item: Item = sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    if item.status == "verified" {
        sqlx::query(
            "UPDATE storage_usage SET file_count = GREATEST(file_count - 1, 0), \
             used_bytes = GREATEST(used_bytes - $2, 0), updated_at = now() WHERE user_id = $1",
        )
        .bind(owner)
        .bind(item.file_size)
        .execute(conn)
        .await?;
    }
    Ok(item)
}

/// A presigned GET to download the owner's stored file, unless its folder has expired.
pub async fn download(
    state: &AppState,
    owner: Uuid,
    id: Uuid,
) -> Result<(String, DateTime<Utc>), EvidenceError> {
    let mut conn = state.pool.acquire().await?;
    let item = get(&mut conn, owner, id).await?;
    if item.storage_expires_at <= Utc::now() {
        return Err(EvidenceError::Expired);
    }
    if !matches!(item.status.as_str(), "uploaded" | "verified") {
        return Err(EvidenceError::WrongState(
            "The file has not been uploaded yet.",
        ));
    }
    let url = state
        .store
        .presign_get(&item.object_key, ttl(state))
        .await?;
    let expires_at = Utc::now()
        + chrono::Duration::seconds(
            i64::try_from(state.config.uploads.presign_ttl_seconds).unwrap_or(900),
        );
    Ok((url, expires_at))
}

/// Presigned URLs for the asked parts of a multipart upload, and the parts S3 already holds.
pub struct PartUrls {
    pub urls: Vec<(i32, String)>,
    pub completed: Vec<i32>,
    pub part_size: i64,
    pub part_count: i32,
    pub expires_at: DateTime<Utc>,
}

pub async fn part_urls(
    state: &AppState,
    owner: Uuid,
    id: Uuid,
    asked: &[i32],
) -> Result<PartUrls, EvidenceError> {
    let mut conn = state.pool.acquire().await?;
    let item = get(&mut conn, owner, id).await?;
    let (Some(upload_id), Some(part_size), "awaiting_upload") = (
        item.upload_id.as_deref(),
        item.part_size,
        item.status.as_str(),
    ) else {
        return Err(EvidenceError::WrongState(
            "This item has no upload in parts waiting.",
        ));
    };
    let part_count =
        i32::try_from(ceil_div(item.file_size, part_size)).map_err(anyhow::Error::from)?;
    if let Some(bad) = asked.iter().find(|n| !(1..=part_count).contains(*n)) {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "part_numbers",
            format!("Part {bad} is not between 1 and {part_count}."),
        )]));
    }
    let completed: Vec<i32> = state
        .store
        .uploaded_parts(&item.object_key, upload_id)
        .await?
        .into_iter()
        .map(|(number, _)| number)
        .collect();
    let mut urls = Vec::with_capacity(asked.len());
    for number in asked {
        urls.push((
            *number,
            state
                .store
                .presign_part(&item.object_key, upload_id, *number, ttl(state))
                .await?,
        ));
    }
    Ok(PartUrls {
        urls,
        completed,
        part_size,
        part_count,
        expires_at: Utc::now()
            + chrono::Duration::seconds(
                i64::try_from(state.config.uploads.presign_ttl_seconds).unwrap_or(900),
            ),
    })
}

/// The browser says the bytes are up: complete the multipart upload from S3's own list of parts
/// (never the client's), check the object is there with the declared size, record the receipt
/// and publish `ItemUploaded` in the same transaction. Finishing twice is harmless.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn finish(state: &AppState, owner: Uuid, id: Uuid) -> Result<Item, EvidenceError> {
    let mut tx = state.pool.begin().await?;
    let sql = format!("SELECT {COLUMNS} FROM items WHERE owner_id = $1 AND id = $2 FOR UPDATE");
    let item: Item = sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    if item.status != "awaiting_upload" {
        return Ok(item);
    }
    if let (Some(upload_id), Some(part_size)) = (item.upload_id.as_deref(), item.part_size) {
        let parts = state
            .store
            .uploaded_parts(&item.object_key, upload_id)
            .await?;
        let expected = ceil_div(item.file_size, part_size);
        let numbers: Vec<i64> = parts.iter().map(|(n, _)| i64::from(*n)).collect();
        if numbers != (1..=expected).collect::<Vec<_>>() {
            return Err(EvidenceError::WrongState(
                "Some parts of the file have not been uploaded yet.",
            ));
        }
        state
            .store
            .complete_multipart(&item.object_key, upload_id, &parts)
            .await?;
    }
    match state.store.object_size(&item.object_key).await? {
        None => {
            return Err(EvidenceError::WrongState(
                "The file has not been uploaded yet.",
            ));
        }
        Some(size) if size != item.file_size => {
            return Err(EvidenceError::WrongState(
                "The uploaded file's size does not match.",
            ));
        }
        Some(_) => {}
    }
    let sql = format!(
        "UPDATE items SET status = 'uploaded', received_at = now(), updated_at = now() WHERE id = $1 RETURNING {COLUMNS}"
    );
    let item: Item = sqlx::query_as(&sql).bind(id).fetch_one(&mut *tx).await?;
    outbox::enqueue(
        &mut tx,
        &ItemUploaded {
            item_id: item.id.to_string(),
            folder_id: item.folder_id.to_string(),
            owner_id: owner.to_string(),
            object_key: item.object_key.clone(),
            file_size: item.file_size,
            sha256: item.sha256.clone(),
            media_type: item.media_type.clone(),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_sizes_keep_uploads_under_ten_thousand_parts() {
        let mib = 1024 * 1024;
        assert_eq!(part_size_for(2 * 1024 * mib, 8 * mib), 8 * mib);
        assert_eq!(
            part_size_for(200 * 1024 * mib, 8 * mib),
            ceil_div(200 * 1024 * mib, 10_000)
        );
        assert_eq!(
            part_size_for(10 * mib, mib),
            5 * mib,
            "S3's minimum part size"
        );
    }
}
