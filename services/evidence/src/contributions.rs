//! Files from anonymous contributors, on the sharing service's behalf (it verified the
//! contributor's e-mail and checks their link). They go through the same upload mechanism as
//! every capture (`items`), into one step of an organization folder, owned by the folder's owner
//! and pending a participant's decision. A contributor reaches only their own files. Their bytes
//! are checked by content when verified (`sniff`), and an upload that cannot be finished marks
//! the file rejected, so the contributor's screen offers a retry (the same client id restarts it).

use evidentia_common::errors::FieldError;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{self, Name},
    error::EvidenceError,
    items::{self, Contribution, Item, NewItem, PartUrls, Upload},
    org_folders,
    state::AppState,
    storage::PresignedPost,
};

/// The contributor's file; anyone else's is `NotFound`.
pub async fn own(
    conn: &mut PgConnection,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<Item, EvidenceError> {
    let owner: Option<Uuid> =
        sqlx::query_scalar("SELECT owner_id FROM items WHERE id = $1 AND contributor_id = $2")
            .bind(item_id)
            .bind(contributor)
            .fetch_optional(&mut *conn)
            .await?;
    items::get(conn, owner.ok_or(EvidenceError::NotFound)?, item_id).await
}

/// Registers a contributed file in a step of an organization folder.
pub async fn create(
    state: &AppState,
    contribution: Contribution,
    step_id: String,
    mut new: NewItem,
) -> Result<(Item, Option<Upload>), EvidenceError> {
    let max = state
        .config
        .contributions
        .max_file_bytes
        .min(state.config.uploads.max_file_bytes);
    domain::file_size("file_size", new.file_size, max)
        .map_err(|e| EvidenceError::Invalid(vec![e]))?;
    let owner = {
        let mut conn = state.pool.acquire().await?;
        org_folders::for_contribution(&mut conn, new.folder_id)
            .await?
            .folder
            .owner_id
    };
    new.step_id = Some(step_id);
    new.section = None;
    new.contribution = Some(contribution);
    items::create(state, owner, new).await
}

/// The presigned POST of a contributed file sent in one request.
pub async fn single_upload(
    state: &AppState,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<PresignedPost, EvidenceError> {
    let mut conn = state.pool.acquire().await?;
    let item = own(&mut conn, contributor, item_id).await?;
    match items::upload_of(state, &item)? {
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
    state: &AppState,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<PartUrls, EvidenceError> {
    let item = {
        let mut conn = state.pool.acquire().await?;
        own(&mut conn, contributor, item_id).await?
    };
    let Some(Upload::Multipart { part_count, .. }) = items::upload_of(state, &item)? else {
        return Err(EvidenceError::WrongState(
            "This file is sent in one request: ask for its upload URL.",
        ));
    };
    let all: Vec<i32> = (1..=part_count).collect();
    items::part_urls(state, item.owner_id, item.id, &all).await
}

/// Finishes a contributed file's upload; when its bytes are missing or incomplete the file is
/// marked rejected with the reason (and a retry restarts it).
pub async fn finish(
    state: &AppState,
    contributor: Uuid,
    item_id: Uuid,
) -> Result<Item, EvidenceError> {
    let item = {
        let mut conn = state.pool.acquire().await?;
        own(&mut conn, contributor, item_id).await?
    };
    match items::finish(state, item.owner_id, item.id).await {
        Err(EvidenceError::WrongState(reason)) => {
            sqlx::query(
                "UPDATE items SET status = 'rejected', rejection_reason = $2, updated_at = now() \
                 WHERE id = $1 AND status = 'awaiting_upload'",
            )
            .bind(item.id)
            .bind(reason)
            .execute(&state.pool)
            .await?;
            tracing::warn!(item.id = %item.id, %reason, "contribution rejected at finish");
            Err(EvidenceError::ContributionRejected(reason.to_owned()))
        }
        other => other,
    }
}

/// What a contributor may change of their file while it waits for a decision: its name and place.
pub async fn update(
    state: &AppState,
    contributor: Uuid,
    item_id: Uuid,
    name: Option<String>,
    place: Option<(f64, f64)>,
) -> Result<Item, EvidenceError> {
    let mut conn = state.pool.acquire().await?;
    let item = own(&mut conn, contributor, item_id).await?;
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
        sqlx::query("UPDATE items SET name = $2, updated_at = now() WHERE id = $1")
            .bind(item.id)
            .bind(name.as_str())
            .execute(&mut *conn)
            .await?;
    }
    if let Some((lat, lon)) = place {
        let (city, address, country) = items::place_of(state, Some(lat), Some(lon)).await;
        sqlx::query(
            "UPDATE items SET latitude = $2, longitude = $3, city = $4, address = $5, country_code = $6, \
             updated_at = now() WHERE id = $1",
        )
        .bind(item.id)
        .bind(lat)
        .bind(lon)
        .bind(city)
        .bind(address)
        .bind(country)
        .execute(&mut *conn)
        .await?;
    }
    items::get(&mut conn, item.owner_id, item.id).await
}

/// The contributor's files in a folder (or one of its steps), oldest first.
pub async fn list(
    conn: &mut PgConnection,
    folder_id: Uuid,
    contributor: Uuid,
    step_id: Option<Uuid>,
) -> Result<Vec<Item>, EvidenceError> {
    let sql = format!(
        "SELECT {} FROM items WHERE folder_id = $1 AND contributor_id = $2 \
         AND ($3::uuid IS NULL OR step_id = $3) ORDER BY created_at",
        items::COLUMNS
    );
    Ok(sqlx::query_as(&sql)
        .bind(folder_id)
        .bind(contributor)
        .bind(step_id)
        .fetch_all(conn)
        .await?)
}
