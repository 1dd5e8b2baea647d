//! What a recipient sees: the watermark's facts and each copy, with short-lived links to the
//! copy's bytes once it is ready. Originals are never named here. Copies of a folder whose
//! storage date has passed show as expired, without links.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    app::{
        access::{Pass, authorize},
        custody::{self, Kind, Whose},
        links::Links,
    },
    domain::CopyType,
    error::SharingError,
    outbound::{CopyStore, Evidence},
    store::{copies, shares},
};

#[derive(Debug, Clone)]
pub struct Watermark {
    pub copy_type: CopyType,
    pub generated_for: Option<String>,
    pub sent_to: String,
    pub generated_on: DateTime<Utc>,
    pub transaction_number: String,
}

#[derive(Debug, Clone)]
pub struct SharedCopy {
    pub id: Uuid,
    pub name: String,
    pub media_type: String,
    /// `preparing`, `ready`, `failed` or `expired`.
    pub state: &'static str,
    pub url: Option<String>,
    pub download_url: Option<String>,
    pub sha256: Option<String>,
    pub size_bytes: Option<i64>,
    pub duration: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct SharedFolder {
    pub share_id: Uuid,
    pub folder_name: String,
    pub watermark: Watermark,
    pub items: Vec<SharedCopy>,
}

pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub links: &'a Links,
    pub evidence: &'a dyn Evidence,
    pub copies: &'a dyn CopyStore,
}

/// The file name a copy downloads as: the item's name with the copy's extension.
pub fn download_name(name: &str, content_type: Option<&str>) -> String {
    let extension = match content_type {
        Some("image/jpeg") => "jpg",
        _ => "mp4",
    };
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{stem} (copy).{extension}")
}

#[tracing::instrument(skip_all)]
pub async fn view(
    deps: &Deps<'_>,
    pass: &Pass<'_>,
    wanted: Option<CopyType>,
) -> Result<SharedFolder, SharingError> {
    let opened = authorize(deps.pool, deps.links, pass).await?;
    let copy_type = CopyType::from_db(&opened.copy_type);
    if wanted.is_some_and(|wanted| wanted != copy_type) {
        return Err(SharingError::NotFound);
    }
    let expired = match deps
        .evidence
        .folder(opened.owner_id, opened.folder_id)
        .await
    {
        Ok(folder) => folder.expired,
        // The folder is gone: so are the originals, and the copies with them.
        Err(SharingError::NotFound) => true,
        Err(other) => return Err(other),
    };
    let mut conn = deps.pool.acquire().await?;
    let items = shares::items(&mut conn, opened.delivery.share_id).await?;
    let rows = copies::for_delivery(&mut conn, opened.delivery.id).await?;
    drop(conn);
    let mut shared = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(item) = items.iter().find(|i| i.item_id == row.item_id) else {
            continue;
        };
        let (state, url, download_url) = match (expired, row.state.as_str(), &row.object_key) {
            (true, _, _) => ("expired", None, None),
            (false, "ready", Some(key)) => (
                "ready",
                Some(deps.copies.presign_get(key, None).await?),
                Some(
                    deps.copies
                        .presign_get(
                            key,
                            Some(&download_name(&item.name, row.content_type.as_deref())),
                        )
                        .await?,
                ),
            ),
            (false, "failed", _) => ("failed", None, None),
            _ => ("preparing", None, None),
        };
        shared.push(SharedCopy {
            id: row.id,
            name: item.name.clone(),
            media_type: item.media_type.clone(),
            state,
            url,
            download_url,
            sha256: row.sha256.filter(|_| state == "ready"),
            size_bytes: row.size_bytes.filter(|_| state == "ready"),
            duration: item.duration_seconds,
        });
    }
    Ok(SharedFolder {
        share_id: opened.delivery.share_id,
        folder_name: opened.folder_name,
        watermark: Watermark {
            copy_type,
            generated_for: opened.generated_for,
            sent_to: opened.delivery.sent_to,
            generated_on: opened.delivery.created_at,
            transaction_number: opened.delivery.transaction_number,
        },
        items: shared,
    })
}

/// A recipient opened or downloaded a copy: the item's custody log says so.
#[tracing::instrument(skip_all, fields(copy.id = %copy_id))]
pub async fn record_event(
    pool: &PgPool,
    links: &Links,
    pass: &Pass<'_>,
    copy_id: Uuid,
    kind: &str,
) -> Result<(), SharingError> {
    let kind = match kind {
        "viewed" => Kind::Viewed,
        "downloaded" => Kind::Downloaded,
        _ => {
            return Err(SharingError::invalid(
                "kind",
                "The event must be viewed or downloaded.",
            ));
        }
    };
    let opened = authorize(pool, links, pass).await?;
    let mut tx = pool.begin().await?;
    let copy = copies::for_delivery(&mut tx, opened.delivery.id)
        .await?
        .into_iter()
        .find(|c| c.id == copy_id)
        .ok_or(SharingError::NotFound)?;
    custody::append(
        &mut tx,
        opened.owner_id,
        copy.item_id,
        Whose::delivery(opened.delivery.share_id, opened.delivery.id),
        kind,
        Utc::now(),
        &format!("by {}", opened.delivery.sent_to),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
