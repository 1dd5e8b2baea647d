//! Retakes: a new capture of an item's subject replaces its file while its folder has not
//! expired. The item awaits the new bytes; its previous verified file is kept, and still served,
//! until the new one is verified (then `verify` deletes it). An unfinished or rejected upload
//! being replaced is discarded at once.

use chrono::Utc;
use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::ItemRetaken;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::{
        holds,
        items::owned,
        uploads::{Deps, Upload, place_of, start_upload, validate},
    },
    domain::{Item, MediaType, NewItem, Retake},
    error::EvidenceError,
    store::items,
};

/// What a retake started.
#[derive(Debug, Clone)]
pub struct Retaken {
    pub item: Item,
    pub upload: Upload,
}

/// Why the item cannot be retaken now, if it cannot.
async fn refuse(conn: &mut PgConnection, deps: Deps<'_>, item: &Item) -> Result<(), EvidenceError> {
    if deps.storage.expired(item.storage_expires_at, Utc::now()) {
        return Err(EvidenceError::RetakeExpired);
    }
    holds::refuse_item(conn, item.id).await
}

fn refuse_while_checked(item: &Item) -> Result<(), EvidenceError> {
    if item.status == "uploaded" {
        return Err(EvidenceError::WrongState(
            "The file is being checked. Please try again in a moment.",
        ));
    }
    Ok(())
}

/// Starts a new upload for the same item (same name, section and media type). The item is
/// checked first, then the place is named and the upload started in S3 with no row locked,
/// then the item is locked, checked again (it may have changed meanwhile) and written; what the
/// retake discards is removed from S3 once committed, and an upload started for nothing is
/// aborted.
#[tracing::instrument(skip_all, fields(user.id = %owner, item.id = %retake.item_id))]
pub async fn retake(deps: Deps<'_>, owner: Uuid, retake: Retake) -> Result<Retaken, EvidenceError> {
    let item = {
        let mut conn = deps.pool.acquire().await?;
        let item = owned(&mut conn, owner, retake.item_id).await?;
        refuse(&mut conn, deps, &item).await?;
        item
    };
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
        deps.uploads.max_file_bytes,
    )?;
    refuse_while_checked(&item)?;
    let (city, address, country_code) =
        place_of(deps.geocoder, retake.latitude, retake.longitude).await;
    let key = format!(
        "users/{owner}/folders/{}/items/{}.retake-{}",
        item.folder_id,
        item.id,
        Uuid::now_v7()
    );
    let (upload, upload_id, part_size) = start_upload(
        deps.store,
        deps.uploads,
        &key,
        &retake.mime_type,
        retake.file_size,
        deps.uploads.single_upload_max_bytes,
    )
    .await?;
    let row = items::RetakeRow {
        id: item.id,
        object_key: &key,
        mime_type: &retake.mime_type,
        file_size: retake.file_size,
        sha256: &retake.sha256,
        upload_id: upload_id.as_deref(),
        part_size,
        latitude: retake.latitude,
        longitude: retake.longitude,
        duration_seconds: retake.duration_seconds,
        captured_at: valid.captured_at,
        city: &city,
        address: &address,
        country_code: &country_code,
        previous_object_key: None,
        previous_thumbnail_key: None,
        previous_file_size: None,
    };
    match write(deps, owner, row).await {
        Ok((updated, discarded)) => {
            deps.store.remove_all(discarded).await;
            Ok(Retaken {
                item: updated,
                upload,
            })
        }
        Err(err) => {
            if let Some(upload_id) = &upload_id
                && let Err(abort) = deps.store.abort_multipart(&key, upload_id).await
            {
                tracing::warn!(error = ?abort, "abort of an unused multipart upload failed");
            }
            Err(err)
        }
    }
}

/// Writes the retake under the item's lock, with the previous file taken from the item as it is
/// now; returns the item and the objects it discards.
async fn write(
    deps: Deps<'_>,
    owner: Uuid,
    row: items::RetakeRow<'_>,
) -> Result<(Item, Vec<(String, Option<String>)>), EvidenceError> {
    let mut tx = deps.pool.begin().await?;
    let item = items::lock(&mut tx, owner, row.id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    refuse(&mut tx, deps, &item).await?;
    refuse_while_checked(&item)?;
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
    let updated = items::retake(
        &mut tx,
        &items::RetakeRow {
            previous_object_key: previous_key.as_deref(),
            previous_thumbnail_key: previous_thumbnail.as_deref(),
            previous_file_size: previous_size,
            ..row
        },
    )
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
    Ok((updated, discarded))
}
