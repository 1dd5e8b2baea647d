//! Files from anonymous contributors, on the sharing service's behalf (it verified the
//! contributor's e-mail and checks their link). They go through the same upload mechanism as
//! every capture (`uploads`), into one step of an organization folder, owned by the folder's
//! owner and pending a participant's decision. A contributor reaches only their own files. Their
//! bytes are checked by content when verified (`sniff`), and an upload that cannot be finished
//! marks the file rejected, so the contributor's screen offers a retry (the same client id
//! restarts it).

use evidentia_common::errors::FieldError;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        items::owned,
        org_folders,
        uploads::{self, Deps, PartUrls, Upload, place_of, upload_of},
    },
    domain::{self, Contribution, Item, Name, NewItem},
    error::EvidenceError,
    geocode::Geocoder,
    storage::{MediaStore, PresignedPost},
    store::items,
};

/// The contributor's file; anyone else's is `NotFound`.
async fn own(
    conn: &mut PgConnection,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<Item, EvidenceError> {
    let owner = items::contribution_owner(conn, item_id, contributor)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    owned(conn, owner, item_id).await
}

/// Registers a contributed file in a step of an organization folder.
pub async fn create(
    deps: Deps<'_>,
    contribution: Contribution,
    step_id: String,
    mut new: NewItem,
) -> Result<(Item, Option<Upload>), EvidenceError> {
    let max = deps
        .contributions
        .max_file_bytes
        .min(deps.uploads.max_file_bytes);
    domain::file_size("file_size", new.file_size, max)
        .map_err(|e| EvidenceError::Invalid(vec![e]))?;
    let owner = org_folders::for_contribution(deps.pool, new.folder_id)
        .await?
        .folder
        .owner_id;
    new.step_id = Some(step_id);
    new.section = None;
    new.contribution = Some(contribution);
    uploads::create(deps, owner, new).await
}

/// The presigned POST of a contributed file sent in one request.
pub async fn single_upload(
    deps: Deps<'_>,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<PresignedPost, EvidenceError> {
    let item = own(&mut *deps.pool.acquire().await?, contributor, item_id).await?;
    match upload_of(deps.store, deps.storage, deps.uploads, &item)? {
        Some(Upload::Single(post)) => Ok(post),
        Some(Upload::Multipart { .. }) => Err(EvidenceError::WrongState(
            "This file is sent in parts: start a multipart upload.",
        )),
        None => Err(EvidenceError::WrongState(
            "This file's upload has already finished.",
        )),
    }
}

/// Every part's presigned URL of a contributed file sent in parts, and the parts S3 holds.
pub async fn part_urls(
    deps: Deps<'_>,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<PartUrls, EvidenceError> {
    let item = own(&mut *deps.pool.acquire().await?, contributor, item_id).await?;
    let Some(Upload::Multipart { part_count, .. }) =
        upload_of(deps.store, deps.storage, deps.uploads, &item)?
    else {
        return Err(EvidenceError::WrongState(
            "This file is sent in one request: ask for its upload URL.",
        ));
    };
    let all: Vec<i32> = (1..=part_count).collect();
    uploads::part_urls(
        deps.pool,
        deps.store,
        deps.uploads,
        item.owner_id,
        item.id,
        &all,
    )
    .await
}

/// Finishes a contributed file's upload; when its bytes are missing or incomplete the file is
/// marked rejected with the reason (and a retry restarts it).
pub async fn finish(
    pool: &PgPool,
    store: &MediaStore,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<Item, EvidenceError> {
    let item = own(&mut *pool.acquire().await?, contributor, item_id).await?;
    match uploads::finish(pool, store, item.owner_id, item.id).await {
        Err(EvidenceError::WrongState(reason)) => {
            items::reject_unfinished(&mut *pool.acquire().await?, item.id, reason).await?;
            tracing::warn!(item.id = %item.id, %reason, "contribution rejected at finish");
            Err(EvidenceError::ContributionRejected(reason.to_owned()))
        }
        other => other,
    }
}

/// What a contributor may change of their file while it waits for a decision: its name and place.
pub async fn update(
    pool: &PgPool,
    geocoder: &dyn Geocoder,
    contributor: Uuid,
    item_id: Uuid,
    name: Option<String>,
    place: Option<(f64, f64)>,
) -> Result<Item, EvidenceError> {
    let item = own(&mut *pool.acquire().await?, contributor, item_id).await?;
    if item.review_state.as_deref() != Some("pending") {
        return Err(EvidenceError::WrongState(
            "This file was already reviewed and can no longer be changed.",
        ));
    }
    let name = name
        .map(|n| Name::parse("name", &n))
        .transpose()
        .map_err(|e| EvidenceError::Invalid(vec![e]))?;
    if let Some((lat, lon)) = place
        && (!(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon))
    {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "latitude",
            "Latitude must be between -90 and 90 and longitude between -180 and 180.",
        )]));
    }
    if let Some(name) = &name {
        items::set_name(&mut *pool.acquire().await?, item.id, name.as_str()).await?;
    }
    if let Some((lat, lon)) = place {
        // Geocoding may ask a remote service: no connection is held meanwhile.
        let (city, address, country_code) = place_of(geocoder, Some(lat), Some(lon)).await;
        items::set_place(
            &mut *pool.acquire().await?,
            item.id,
            &items::PlaceRow {
                latitude: lat,
                longitude: lon,
                city: &city,
                address: &address,
                country_code: &country_code,
            },
        )
        .await?;
    }
    owned(&mut *pool.acquire().await?, item.owner_id, item.id).await
}

/// The contributor's files in a folder (or one of its steps), oldest first.
pub async fn list(
    pool: &PgPool,
    folder_id: Uuid,
    contributor: Uuid,
    step_id: Option<Uuid>,
) -> Result<Vec<Item>, EvidenceError> {
    Ok(items::of_contributor(&mut *pool.acquire().await?, folder_id, contributor, step_id).await?)
}
