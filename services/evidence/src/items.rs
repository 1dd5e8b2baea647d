//! Evidence items and their uploads: registered with the device's size and SHA-256, uploaded by
//! the browser straight to S3 (one presigned POST, or presigned parts that a reload can resume),
//! then finished: the service records the receipt and publishes `ItemUploaded`, on which the
//! object is checked. A create carrying the device's client id is idempotent: the same item and
//! its unfinished upload come back, so an offline device or a reloaded page resumes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use evidentia_common::{errors::FieldError, outbox, time::timestamp};
use evidentia_proto::events::v1::{ItemRetaken, ItemUploaded};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{self, MediaType, Name},
    error::EvidenceError,
    folders,
    state::AppState,
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
    pub client_id: Option<Uuid>,
    pub section: Option<String>,
    pub previous_object_key: Option<String>,
    pub previous_thumbnail_key: Option<String>,
    pub previous_file_size: Option<i64>,
    pub purged_at: Option<DateTime<Utc>>,
    pub storage_expires_at: DateTime<Utc>,
    pub step_id: Option<Uuid>,
    pub contributor_id: Option<Uuid>,
    pub contributor_email: Option<String>,
    pub review_state: Option<String>,
}

impl Item {
    /// The stored file that opens and downloads, with its thumbnail: the current one once its
    /// bytes are in, else the previous verified one a pending retake replaces.
    pub fn readable(&self) -> Option<(&str, Option<&str>)> {
        if self.purged_at.is_some() {
            None
        } else if matches!(self.status.as_str(), "uploaded" | "verified") {
            Some((&self.object_key, self.thumbnail_key.as_deref()))
        } else {
            self.previous_object_key
                .as_deref()
                .map(|key| (key, self.previous_thumbnail_key.as_deref()))
        }
    }

    /// Bytes this item counts for in its owner's usage.
    pub fn counted_bytes(&self) -> Option<i64> {
        if self.purged_at.is_some() {
            None
        } else if self.status == "verified" {
            Some(self.file_size)
        } else {
            self.previous_object_key
                .as_ref()
                .map(|_| self.previous_file_size.unwrap_or(0))
        }
    }

    /// Every object of the item to remove from S3 when it goes (with the unfinished upload to
    /// abort, if any).
    pub fn objects(&self) -> Vec<(String, Option<String>)> {
        let upload = (self.status == "awaiting_upload")
            .then(|| self.upload_id.clone())
            .flatten();
        let mut objects = vec![(self.object_key.clone(), upload)];
        for key in [
            &self.thumbnail_key,
            &self.previous_object_key,
            &self.previous_thumbnail_key,
        ]
        .into_iter()
        .flatten()
        {
            objects.push((key.clone(), None));
        }
        objects
    }
}

pub const COLUMNS: &str = "id, folder_id, owner_id, name, media_type, mime_type, object_key, file_size, sha256, status, \
     rejection_reason, upload_id, part_size, latitude, longitude, city, address, country_code, duration_seconds, captured_at, \
     received_at, verified_at, created_at, thumbnail_key, client_id, section, \
     previous_object_key, previous_thumbnail_key, previous_file_size, purged_at, \
     (SELECT f.storage_expires_at FROM folders f WHERE f.id = items.folder_id) AS storage_expires_at, \
     step_id, contributor_id, contributor_email, review_state";

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
    pub client_id: Option<String>,
    pub section: Option<String>,
    /// The step of an organization folder (required there, refused elsewhere).
    pub step_id: Option<String>,
    /// Set when an anonymous contributor sends the file (through the sharing service).
    pub contribution: Option<Contribution>,
}

/// Who contributed a file to an organization folder: the sharing service's id of a verified
/// contributor, the address they proved and the link they came by.
#[derive(Debug, Clone)]
pub struct Contribution {
    pub contributor_id: Uuid,
    pub email: String,
    pub link_id: Uuid,
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

struct Valid {
    name: Name,
    media: MediaType,
    captured_at: DateTime<Utc>,
    client_id: Option<Uuid>,
}

fn validate(item: &NewItem, max_bytes: i64) -> Result<Valid, EvidenceError> {
    let mut errors = Vec::new();
    let name = Name::parse("name", &item.name)
        .map_err(|e| errors.push(e))
        .ok();
    let client_id = domain::client_id("client_id", item.client_id.as_deref())
        .map_err(|e| errors.push(e))
        .ok()
        .flatten();
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
    if let Err(e) = domain::file_size("file_size", item.file_size, max_bytes) {
        errors.push(e);
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
    if let Err(e) = domain::duration_seconds("duration", item.duration_seconds) {
        errors.push(e);
    }
    let captured = item.captured_at.unwrap_or_else(Utc::now);
    if captured > Utc::now() + chrono::Duration::minutes(5) {
        errors.push(FieldError::new(
            "captured_at",
            "The capture time is in the future.",
        ));
    }
    match (name, media, errors.is_empty()) {
        (Some(name), Some(media), true) => Ok(Valid {
            name,
            media,
            captured_at: captured,
            client_id,
        }),
        _ => Err(EvidenceError::Invalid(errors)),
    }
}

/// `a / b` rounded up, for positive numbers (without `a + b - 1`, which overflows near the top).
fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}

/// The part size for `size` bytes: the configured size, grown so no upload needs over 10,000 parts.
fn part_size_for(size: i64, configured: i64) -> i64 {
    let minimum = ceil_div(size, 10_000);
    configured.max(minimum).max(5 * 1024 * 1024)
}

fn ttl(state: &AppState) -> Duration {
    Duration::from_secs(state.config.uploads.presign_ttl_seconds)
}

/// How to go on with the item's upload: `None` once its bytes are in.
pub fn upload_of(state: &AppState, item: &Item) -> Result<Option<Upload>, EvidenceError> {
    if item.status != "awaiting_upload" {
        return Ok(None);
    }
    if state
        .config
        .storage
        .expired(item.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::Expired);
    }
    Ok(Some(match (&item.upload_id, item.part_size) {
        (Some(upload_id), Some(part_size)) => Upload::Multipart {
            upload_id: upload_id.clone(),
            part_size,
            part_count: i32::try_from(ceil_div(item.file_size, part_size))
                .map_err(anyhow::Error::from)?,
        },
        _ => Upload::Single(state.store.presigned_post(
            &item.object_key,
            &item.mime_type,
            item.file_size,
            ttl(state),
        )?),
    }))
}

async fn by_client_id(
    conn: &mut PgConnection,
    folder_id: Uuid,
    client_id: Option<Uuid>,
) -> Result<Option<Item>, EvidenceError> {
    let Some(client_id) = client_id else {
        return Ok(None);
    };
    let sql = format!("SELECT {COLUMNS} FROM items WHERE folder_id = $1 AND client_id = $2");
    Ok(sqlx::query_as(&sql)
        .bind(folder_id)
        .bind(client_id)
        .fetch_optional(conn)
        .await?)
}

/// A new upload of `size` bytes to `key`: one presigned POST up to `single_max` bytes, else a
/// multipart upload.
async fn start_upload(
    state: &AppState,
    key: &str,
    mime_type: &str,
    size: i64,
    single_max: i64,
) -> Result<(Upload, Option<String>, Option<i64>), EvidenceError> {
    let uploads = &state.config.uploads;
    if size <= single_max {
        let post = state
            .store
            .presigned_post(key, mime_type, size, ttl(state))?;
        return Ok((Upload::Single(post), None, None));
    }
    let upload_id = state.store.create_multipart(key, mime_type).await?;
    let part_size = part_size_for(size, uploads.part_size_bytes);
    let part_count = i32::try_from(ceil_div(size, part_size)).map_err(anyhow::Error::from)?;
    Ok((
        Upload::Multipart {
            upload_id: upload_id.clone(),
            part_size,
            part_count,
        },
        Some(upload_id),
        Some(part_size),
    ))
}

/// City, address and country of a capture's coordinates; a geocoding failure leaves them empty.
pub async fn place_of(
    state: &AppState,
    latitude: Option<f64>,
    longitude: Option<f64>,
) -> (String, String, String) {
    let place = match (latitude, longitude) {
        (Some(lat), Some(lon)) => state.geocoder.locate(lat, lon).await.unwrap_or_else(|err| {
            // A place name is a convenience: the capture is kept with its coordinates.
            tracing::warn!(error = ?err, "reverse geocoding failed");
            None
        }),
        _ => None,
    };
    place.map_or_else(Default::default, |p| (p.city, p.address, p.country_code))
}

/// Registers a capture in the owner's folder and starts its upload. With a client id already
/// used in the folder, answers that item and how to go on with its upload (`None` once it is in).
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    state: &AppState,
    owner: Uuid,
    new: NewItem,
) -> Result<(Item, Option<Upload>), EvidenceError> {
    let valid = validate(&new, state.config.uploads.max_file_bytes)?;
    // One transaction: a step's row stays locked from the check of its room to the insert, so
    // two files at once cannot pass its maximum.
    let mut conn = state.pool.begin().await?;
    let folder = folders::get(&mut conn, owner, new.folder_id).await?;
    if let Some(existing) = by_client_id(&mut conn, folder.id, valid.client_id).await? {
        if let Some(contribution) = &new.contribution {
            if existing.contributor_id != Some(contribution.contributor_id) {
                return Err(EvidenceError::NotFound);
            }
            if existing.status == "rejected" {
                let restarted = restart(state, &mut conn, existing).await?;
                conn.commit().await?;
                return Ok(restarted);
            }
        }
        let upload = upload_of(state, &existing)?;
        return Ok((existing, upload));
    }
    if state
        .config
        .storage
        .expired(folder.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::Expired);
    }
    let section = domain::section(folder.rental_kind(), new.section.as_deref())
        .map_err(|e| EvidenceError::Invalid(vec![e]))?;
    let step_id = crate::org_folders::check_step(
        &mut conn,
        folder.organization_id.is_some(),
        folder.id,
        new.step_id.as_deref(),
        valid.media,
    )
    .await?;
    let (city, address, country_code) = place_of(state, new.latitude, new.longitude).await;
    let id = Uuid::now_v7();
    let key = format!("users/{owner}/folders/{}/items/{id}", folder.id);
    // A contributor's phone sends anything but a small file in parts, which a poor connection
    // can resume; the owner's device does so past the general limit.
    let single_max = if new.contribution.is_some() {
        state.config.contributions.single_upload_max_bytes
    } else {
        state.config.uploads.single_upload_max_bytes
    };
    let (upload, upload_id, part_size) =
        start_upload(state, &key, &new.mime_type, new.file_size, single_max).await?;
    let sql = format!(
        "INSERT INTO items (id, folder_id, owner_id, name, media_type, mime_type, object_key, file_size, sha256, \
         upload_id, part_size, latitude, longitude, duration_seconds, captured_at, city, address, country_code, \
         client_id, section, step_id, contributor_id, contributor_email, contribution_link_id, review_state) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
         $21, $22, $23, $24, $25) \
         ON CONFLICT ON CONSTRAINT items_folder_client_id DO NOTHING RETURNING {COLUMNS}"
    );
    let inserted: Option<Item> = sqlx::query_as(&sql)
        .bind(id)
        .bind(folder.id)
        .bind(owner)
        .bind(valid.name.as_str())
        .bind(valid.media.as_str())
        .bind(&new.mime_type)
        .bind(&key)
        .bind(new.file_size)
        .bind(&new.sha256)
        .bind(&upload_id)
        .bind(part_size)
        .bind(new.latitude)
        .bind(new.longitude)
        .bind(new.duration_seconds)
        .bind(valid.captured_at)
        .bind(&city)
        .bind(&address)
        .bind(&country_code)
        .bind(valid.client_id)
        .bind(section)
        .bind(step_id)
        .bind(new.contribution.as_ref().map(|c| c.contributor_id))
        .bind(new.contribution.as_ref().map(|c| c.email.as_str()))
        .bind(new.contribution.as_ref().map(|c| c.link_id))
        .bind(new.contribution.as_ref().map(|_| "pending"))
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(item) = inserted {
        conn.commit().await?;
        return Ok((item, Some(upload)));
    }
    // A concurrent create with the same client id won: drop ours, answer theirs.
    if let Some(upload_id) = upload_id
        && let Err(err) = state.store.abort_multipart(&key, &upload_id).await
    {
        tracing::warn!(error = ?err, "abort of a duplicate multipart upload failed");
    }
    let existing = by_client_id(&mut conn, folder.id, valid.client_id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    let upload = upload_of(state, &existing)?;
    Ok((existing, upload))
}

/// A contribution whose upload failed, sent again: the same item gets a fresh upload of the
/// same declared file (the contributor's retry).
async fn restart(
    state: &AppState,
    conn: &mut PgConnection,
    item: Item,
) -> Result<(Item, Option<Upload>), EvidenceError> {
    if state
        .config
        .storage
        .expired(item.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::Expired);
    }
    if let Some(upload_id) = &item.upload_id
        && let Err(err) = state
            .store
            .abort_multipart(&item.object_key, upload_id)
            .await
    {
        // The old upload may be gone already; S3 drops abandoned ones by its own lifecycle.
        tracing::debug!(error = ?err, "abort of a failed contribution's upload");
    }
    let (upload, upload_id, part_size) = start_upload(
        state,
        &item.object_key,
        &item.mime_type,
        item.file_size,
        state.config.contributions.single_upload_max_bytes,
    )
    .await?;
    let sql = format!(
        "UPDATE items SET status = 'awaiting_upload', rejection_reason = '', upload_id = $2, part_size = $3, \
         received_at = NULL, upload_started_at = now(), updated_at = now() \
         WHERE id = $1 AND status = 'rejected' RETURNING {COLUMNS}"
    );
    let restarted: Option<Item> = sqlx::query_as(&sql)
        .bind(item.id)
        .bind(&upload_id)
        .bind(part_size)
        .fetch_optional(&mut *conn)
        .await?;
    match restarted {
        Some(item) => Ok((item, Some(upload))),
        // A concurrent retry restarted it first: go on with that one.
        None => {
            let item = get(conn, item.owner_id, item.id).await?;
            let upload = upload_of(state, &item)?;
            Ok((item, upload))
        }
    }
}

/// A new capture of an item's subject, as the device describes it.
#[derive(Debug, Clone)]
pub struct Retake {
    pub item_id: Uuid,
    pub mime_type: String,
    pub file_size: i64,
    pub sha256: String,
    pub captured_at: Option<DateTime<Utc>>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub duration_seconds: Option<f64>,
}

/// What a retake started, and what it discarded (to remove from S3 once committed).
pub struct Retaken {
    pub item: Item,
    pub upload: Upload,
    pub discarded: Vec<(String, Option<String>)>,
}

/// Starts a new upload for the same item (same name, section and media type) while its folder
/// has not expired. The item awaits the new bytes; its previous verified file is kept, and still
/// served, until the new one is verified (then `verify` deletes it). An unfinished or rejected
/// upload being replaced is discarded at once.
#[tracing::instrument(skip_all, fields(user.id = %owner, item.id = %retake.item_id))]
pub async fn retake(
    state: &AppState,
    owner: Uuid,
    retake: Retake,
) -> Result<Retaken, EvidenceError> {
    let mut tx = state.pool.begin().await?;
    let sql = format!("SELECT {COLUMNS} FROM items WHERE owner_id = $1 AND id = $2 FOR UPDATE");
    let item: Item = sqlx::query_as(&sql)
        .bind(owner)
        .bind(retake.item_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    if state
        .config
        .storage
        .expired(item.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::RetakeExpired);
    }
    crate::holds::refuse_item(&mut tx, item.id).await?;
    let valid = validate(
        &NewItem {
            folder_id: item.folder_id,
            name: item.name.clone(),
            media_type: MediaType::from_db(&item.media_type),
            mime_type: retake.mime_type.clone(),
            file_size: retake.file_size,
            sha256: retake.sha256.clone(),
            captured_at: retake.captured_at,
            latitude: retake.latitude,
            longitude: retake.longitude,
            duration_seconds: retake.duration_seconds,
            client_id: None,
            section: None,
            step_id: None,
            contribution: None,
        },
        state.config.uploads.max_file_bytes,
    )?;
    if item.status == "uploaded" {
        return Err(EvidenceError::WrongState(
            "The file is being checked. Please try again in a moment.",
        ));
    }
    // Keep the verified file until its replacement is verified; drop an unverified one now.
    let (previous_key, previous_thumbnail, previous_size, discarded) = if item.status == "verified"
    {
        (
            Some(item.object_key.clone()),
            item.thumbnail_key.clone(),
            Some(item.file_size),
            Vec::new(),
        )
    } else {
        let upload = (item.status == "awaiting_upload")
            .then(|| item.upload_id.clone())
            .flatten();
        let mut discarded = vec![(item.object_key.clone(), upload)];
        discarded.extend(item.thumbnail_key.clone().map(|key| (key, None)));
        (
            item.previous_object_key.clone(),
            item.previous_thumbnail_key.clone(),
            item.previous_file_size,
            discarded,
        )
    };
    let (city, address, country_code) = place_of(state, retake.latitude, retake.longitude).await;
    let key = format!(
        "users/{owner}/folders/{}/items/{}.retake-{}",
        item.folder_id,
        item.id,
        Uuid::now_v7()
    );
    let (upload, upload_id, part_size) = start_upload(
        state,
        &key,
        &retake.mime_type,
        retake.file_size,
        state.config.uploads.single_upload_max_bytes,
    )
    .await?;
    let sql = format!(
        "UPDATE items SET object_key = $2, mime_type = $3, file_size = $4, sha256 = $5, status = 'awaiting_upload', \
         rejection_reason = '', upload_id = $6, part_size = $7, latitude = $8, longitude = $9, duration_seconds = $10, \
         captured_at = $11, city = $12, address = $13, country_code = $14, received_at = NULL, verified_at = NULL, \
         thumbnail_key = NULL, previous_object_key = $15, previous_thumbnail_key = $16, previous_file_size = $17, \
         upload_started_at = now(), updated_at = now() WHERE id = $1 RETURNING {COLUMNS}"
    );
    let updated: Item = sqlx::query_as(&sql)
        .bind(item.id)
        .bind(&key)
        .bind(&retake.mime_type)
        .bind(retake.file_size)
        .bind(&retake.sha256)
        .bind(&upload_id)
        .bind(part_size)
        .bind(retake.latitude)
        .bind(retake.longitude)
        .bind(retake.duration_seconds)
        .bind(valid.captured_at)
        .bind(&city)
        .bind(&address)
        .bind(&country_code)
        .bind(previous_key)
        .bind(previous_thumbnail)
        .bind(previous_size)
        .fetch_one(&mut *tx)
        .await?;
    outbox::enqueue(
        &mut tx,
        &ItemRetaken {
            item_id: item.id.to_string(),
            folder_id: item.folder_id.to_string(),
            owner_id: owner.to_string(),
            occurred_at: Some(timestamp(Utc::now())),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Retaken {
        item: updated,
        upload,
        discarded,
    })
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
    crate::holds::refuse_item(conn, id).await?;
    let sql = format!("DELETE FROM items WHERE owner_id = $1 AND id = $2 RETURNING {COLUMNS}");
    let item: Item = sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    if let Some(bytes) = item.counted_bytes() {
        sqlx::query(
            "UPDATE storage_usage SET file_count = GREATEST(file_count - 1, 0), \
             used_bytes = GREATEST(used_bytes - $2, 0), updated_at = now() WHERE user_id = $1",
        )
        .bind(owner)
        .bind(bytes)
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
    if state
        .config
        .storage
        .expired(item.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::Expired);
    }
    let Some((key, _)) = item.readable() else {
        return Err(EvidenceError::WrongState(
            "The file has not been uploaded yet.",
        ));
    };
    let url = state.store.presign_get(key, ttl(state)).await?;
    let expires_at = Utc::now()
        + chrono::Duration::seconds(
            i64::try_from(state.config.uploads.presign_ttl_seconds).unwrap_or(900),
        );
    Ok((url, expires_at))
}

/// The object key of the owner's verified original, for streaming it to the sharing service;
/// refused like a download once the folder has expired.
pub async fn original_key(
    state: &AppState,
    owner: Uuid,
    id: Uuid,
) -> Result<String, EvidenceError> {
    let mut conn = state.pool.acquire().await?;
    let item = get(&mut conn, owner, id).await?;
    if state
        .config
        .storage
        .expired(item.storage_expires_at, Utc::now())
    {
        return Err(EvidenceError::Expired);
    }
    if item.status != "verified" || item.purged_at.is_some() {
        return Err(EvidenceError::WrongState(
            "The file has not been verified yet.",
        ));
    }
    Ok(item.object_key)
}

/// Presigned URLs for the asked parts of a multipart upload, and the parts S3 already holds.
pub struct PartUrls {
    pub upload_id: String,
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
        upload_id: upload_id.to_owned(),
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
