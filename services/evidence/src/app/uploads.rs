//! Uploads: a capture is registered with the device's size and SHA-256 and uploaded by the
//! browser straight to S3 (one presigned POST, or presigned parts that a reload can resume),
//! then finished: the service records the receipt and publishes `ItemUploaded`, on which the
//! object is checked. A create carrying the device's client id is idempotent: the same item and
//! its unfinished upload come back, so an offline device or a reloaded page resumes.

use chrono::{DateTime, Utc};
use evidentia_common::{errors::FieldError, outbox};
use evidentia_proto::events::v1::ItemUploaded;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        folders,
        items::{owned, presign_expiry, presign_ttl},
        org_folders,
    },
    config::{ContributionPolicy, StoragePolicy, UploadPolicy},
    domain::{self, Folder, Item, MediaType, Name, NewItem},
    error::EvidenceError,
    geocode::Geocoder,
    storage::{MediaStore, PresignedPost},
    store::items,
};

/// What registering and restarting uploads reach: the database, S3, the geocoder and the limits.
#[derive(Clone, Copy)]
pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub store: &'a MediaStore,
    pub geocoder: &'a dyn Geocoder,
    pub storage: &'a StoragePolicy,
    pub uploads: &'a UploadPolicy,
    pub contributions: &'a ContributionPolicy,
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

/// What a capture is, once checked.
pub(crate) struct Valid {
    pub name: Name,
    pub media: MediaType,
    pub captured_at: DateTime<Utc>,
    pub client_id: Option<Uuid>,
}

pub(crate) fn validate(item: &NewItem, max_bytes: i64) -> Result<Valid, EvidenceError> {
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

/// How to go on with the item's upload: `None` once its bytes are in.
pub fn upload_of(
    store: &MediaStore,
    storage: &StoragePolicy,
    uploads: &UploadPolicy,
    item: &Item,
) -> Result<Option<Upload>, EvidenceError> {
    if item.status != "awaiting_upload" {
        return Ok(None);
    }
    if storage.expired(item.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    Ok(Some(match (&item.upload_id, item.part_size) {
        (Some(upload_id), Some(part_size)) => Upload::Multipart {
            upload_id: upload_id.clone(),
            part_size,
            part_count: i32::try_from(ceil_div(item.file_size, part_size))
                .map_err(anyhow::Error::from)?,
        },
        _ => Upload::Single(store.presigned_post(
            &item.object_key,
            &item.mime_type,
            item.file_size,
            presign_ttl(uploads),
        )?),
    }))
}

/// A new upload of `size` bytes to `key`: one presigned POST up to `single_max` bytes, else a
/// multipart upload (with its id and part size).
pub(crate) async fn start_upload(
    store: &MediaStore,
    uploads: &UploadPolicy,
    key: &str,
    mime_type: &str,
    size: i64,
    single_max: i64,
) -> Result<(Upload, Option<String>, Option<i64>), EvidenceError> {
    if size <= single_max {
        let post = store.presigned_post(key, mime_type, size, presign_ttl(uploads))?;
        return Ok((Upload::Single(post), None, None));
    }
    let upload_id = store.create_multipart(key, mime_type).await?;
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
pub(crate) async fn place_of(
    geocoder: &dyn Geocoder,
    latitude: Option<f64>,
    longitude: Option<f64>,
) -> (String, String, String) {
    let place = match (latitude, longitude) {
        (Some(lat), Some(lon)) => geocoder.locate(lat, lon).await.unwrap_or_else(|err| {
            // A place name is a convenience: the capture is kept with its coordinates.
            tracing::warn!(error = ?err, "reverse geocoding failed");
            None
        }),
        _ => None,
    };
    place.map_or_else(Default::default, |p| (p.city, p.address, p.country_code))
}

async fn by_client_id(
    conn: &mut PgConnection,
    folder_id: Uuid,
    client_id: Option<Uuid>,
) -> Result<Option<Item>, EvidenceError> {
    let Some(client_id) = client_id else {
        return Ok(None);
    };
    Ok(items::by_client_id(conn, folder_id, client_id).await?)
}

/// Registers a capture in the owner's folder and starts its upload. With a client id already
/// used in the folder, answers that item and how to go on with its upload (`None` once it is in).
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    deps: Deps<'_>,
    owner: Uuid,
    new: NewItem,
) -> Result<(Item, Option<Upload>), EvidenceError> {
    let valid = validate(&new, deps.uploads.max_file_bytes)?;
    let mut conn = deps.pool.acquire().await?;
    let folder = folders::owned(&mut conn, owner, new.folder_id).await?;
    if let Some(existing) = by_client_id(&mut conn, folder.id, valid.client_id).await? {
        drop(conn);
        if let Some(contribution) = &new.contribution {
            if existing.contributor_id != Some(contribution.contributor_id) {
                return Err(EvidenceError::NotFound);
            }
            if existing.status == "rejected" {
                return restart(deps, existing).await;
            }
        }
        let upload = upload_of(deps.store, deps.storage, deps.uploads, &existing)?;
        return Ok((existing, upload));
    }
    if deps.storage.expired(folder.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    let section = domain::section(folder.rental_kind(), new.section.as_deref())
        .map_err(|e| EvidenceError::Invalid(vec![e]))?;
    // Checked here so a refused file starts nothing in S3, and again under the step's lock
    // when the item is written (the room may have gone meanwhile).
    org_folders::check_step(
        &mut conn,
        folder.organization_id.is_some(),
        folder.id,
        new.step_id.as_deref(),
        valid.media,
    )
    .await?;
    drop(conn);
    // Geocoding and S3 run with no connection held and no row locked.
    let (city, address, country_code) = place_of(deps.geocoder, new.latitude, new.longitude).await;
    let id = Uuid::now_v7();
    let key = format!("users/{owner}/folders/{}/items/{id}", folder.id);
    // A contributor's phone sends anything but a small file in parts, which a poor connection
    // can resume; the owner's device does so past the general limit.
    let single_max = if new.contribution.is_some() {
        deps.contributions.single_upload_max_bytes
    } else {
        deps.uploads.single_upload_max_bytes
    };
    let (upload, upload_id, part_size) = start_upload(
        deps.store,
        deps.uploads,
        &key,
        &new.mime_type,
        new.file_size,
        single_max,
    )
    .await?;
    let row = items::NewItemRow {
        id,
        folder_id: folder.id,
        owner_id: owner,
        name: valid.name.as_str(),
        media_type: valid.media.as_str(),
        mime_type: &new.mime_type,
        object_key: &key,
        file_size: new.file_size,
        sha256: &new.sha256,
        upload_id: upload_id.as_deref(),
        part_size,
        latitude: new.latitude,
        longitude: new.longitude,
        duration_seconds: new.duration_seconds,
        captured_at: valid.captured_at,
        city: &city,
        address: &address,
        country_code: &country_code,
        client_id: valid.client_id,
        section: section.as_deref(),
        step_id: None,
        contributor_id: new.contribution.as_ref().map(|c| c.contributor_id),
        contributor_email: new.contribution.as_ref().map(|c| c.email.as_str()),
        contribution_link_id: new.contribution.as_ref().map(|c| c.link_id),
        review_state: new.contribution.as_ref().map(|_| "pending"),
    };
    let inserted = insert(deps.pool, &folder, &new, valid.media, row).await;
    if !matches!(inserted, Ok(Some(_)))
        && let Some(upload_id) = &upload_id
        && let Err(err) = deps.store.abort_multipart(&key, upload_id).await
    {
        tracing::warn!(error = ?err, "abort of an unused multipart upload failed");
    }
    if let Some(item) = inserted? {
        return Ok((item, Some(upload)));
    }
    // A concurrent create with the same client id won: answer theirs.
    let existing = by_client_id(&mut *deps.pool.acquire().await?, folder.id, valid.client_id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    let upload = upload_of(deps.store, deps.storage, deps.uploads, &existing)?;
    Ok((existing, upload))
}

/// Writes a new item in one transaction: its step's row stays locked from the check of its room
/// to the insert, so two files at once cannot pass its maximum. `None` when a concurrent create
/// took the client id.
async fn insert(
    pool: &PgPool,
    folder: &Folder,
    new: &NewItem,
    media: MediaType,
    row: items::NewItemRow<'_>,
) -> Result<Option<Item>, EvidenceError> {
    let mut tx = pool.begin().await?;
    let step_id = org_folders::check_step(
        &mut tx,
        folder.organization_id.is_some(),
        folder.id,
        new.step_id.as_deref(),
        media,
    )
    .await?;
    let inserted = items::insert(&mut tx, &items::NewItemRow { step_id, ..row }).await?;
    if inserted.is_some() {
        tx.commit().await?;
    }
    Ok(inserted)
}

/// A contribution whose upload failed, sent again: the same item gets a fresh upload of the
/// same declared file (the contributor's retry).
async fn restart(deps: Deps<'_>, item: Item) -> Result<(Item, Option<Upload>), EvidenceError> {
    if deps.storage.expired(item.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::Expired);
    }
    if let Some(upload_id) = &item.upload_id
        && let Err(err) = deps
            .store
            .abort_multipart(&item.object_key, upload_id)
            .await
    {
        // The old upload may be gone already; S3 drops abandoned ones by its own lifecycle.
        tracing::debug!(error = ?err, "abort of a failed contribution's upload");
    }
    let (upload, upload_id, part_size) = start_upload(
        deps.store,
        deps.uploads,
        &item.object_key,
        &item.mime_type,
        item.file_size,
        deps.contributions.single_upload_max_bytes,
    )
    .await?;
    let mut conn = deps.pool.acquire().await?;
    match items::restart(&mut conn, item.id, upload_id.as_deref(), part_size).await? {
        Some(item) => Ok((item, Some(upload))),
        // A concurrent retry restarted it first: go on with that one.
        None => {
            let item = owned(&mut conn, item.owner_id, item.id).await?;
            let upload = upload_of(deps.store, deps.storage, deps.uploads, &item)?;
            Ok((item, upload))
        }
    }
}

/// Presigned URLs for the asked parts of a multipart upload, and the parts S3 already holds.
#[derive(Debug, Clone)]
pub struct PartUrls {
    pub upload_id: String,
    pub urls: Vec<(i32, String)>,
    pub completed: Vec<i32>,
    pub part_size: i64,
    pub part_count: i32,
    pub expires_at: DateTime<Utc>,
}

pub async fn part_urls(
    pool: &PgPool,
    store: &MediaStore,
    uploads: &UploadPolicy,
    owner: Uuid,
    id: Uuid,
    asked: &[i32],
) -> Result<PartUrls, EvidenceError> {
    let item = owned(&mut *pool.acquire().await?, owner, id).await?;
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
    let completed: Vec<i32> = store
        .uploaded_parts(&item.object_key, upload_id)
        .await?
        .into_iter()
        .map(|(number, _)| number)
        .collect();
    let mut urls = Vec::with_capacity(asked.len());
    for number in asked {
        urls.push((
            *number,
            store
                .presign_part(&item.object_key, upload_id, *number, presign_ttl(uploads))
                .await?,
        ));
    }
    Ok(PartUrls {
        upload_id: upload_id.to_owned(),
        urls,
        completed,
        part_size,
        part_count,
        expires_at: presign_expiry(uploads),
    })
}

/// The browser says the bytes are up: complete the multipart upload from S3's own list of parts
/// (never the client's), check the object is there with the declared size, then record the
/// receipt and publish `ItemUploaded` in one transaction. S3 is asked with no row locked (a
/// large upload's completion takes a while); the receipt is recorded only for the upload that
/// was checked, so finishing twice, or a retake meanwhile, is harmless.
#[tracing::instrument(skip_all, fields(item.id = %id))]
pub async fn finish(
    pool: &PgPool,
    store: &MediaStore,
    owner: Uuid,
    id: Uuid,
) -> Result<Item, EvidenceError> {
    let item = owned(&mut *pool.acquire().await?, owner, id).await?;
    if item.status != "awaiting_upload" {
        return Ok(item);
    }
    if let Err(err) = receive(store, &item).await {
        // A concurrent finish may have completed the upload first: its answer stands.
        let now = owned(&mut *pool.acquire().await?, owner, id).await?;
        if now.status != "awaiting_upload" || now.object_key != item.object_key {
            return Ok(now);
        }
        return Err(err);
    }
    let mut tx = pool.begin().await?;
    let Some(item) = items::mark_uploaded(&mut tx, id, &item.object_key).await? else {
        drop(tx);
        return owned(&mut *pool.acquire().await?, owner, id).await;
    };
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

/// Completes the item's multipart upload, if any, and checks its object holds the declared size.
async fn receive(store: &MediaStore, item: &Item) -> Result<(), EvidenceError> {
    if let (Some(upload_id), Some(part_size)) = (item.upload_id.as_deref(), item.part_size) {
        let parts = store.uploaded_parts(&item.object_key, upload_id).await?;
        let expected = ceil_div(item.file_size, part_size);
        let numbers: Vec<i64> = parts.iter().map(|(n, _)| i64::from(*n)).collect();
        if numbers != (1..=expected).collect::<Vec<_>>() {
            return Err(EvidenceError::WrongState(
                "Some parts of the file have not been uploaded yet.",
            ));
        }
        store
            .complete_multipart(&item.object_key, upload_id, &parts)
            .await?;
    }
    match store.object_size(&item.object_key).await? {
        None => Err(EvidenceError::WrongState(
            "The file has not been uploaded yet.",
        )),
        Some(size) if size != item.file_size => Err(EvidenceError::WrongState(
            "The uploaded file's size does not match.",
        )),
        Some(_) => Ok(()),
    }
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
