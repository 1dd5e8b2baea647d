//! The owner's evidence packet (see `crate::packet` for what it holds). Asking for one gives a
//! short-lived, single-use link; opening the link records the export in each file's custody log,
//! signs the logs' heads, and streams the ZIP while it is written: the originals pass through in
//! chunks, so a folder of many gigabytes takes neither memory nor disk here.

use std::{collections::HashSet, io, sync::Arc};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use evidentia_common::signing::SigningKeys;
use futures::{StreamExt, TryStreamExt, stream::BoxStream};
use sqlx::PgPool;
use tokio_util::io::ReaderStream;
use uuid::Uuid;

use crate::{
    app::custody::{self, Kind},
    domain::{hash_secret, secret},
    error::SharingError,
    outbound::{Evidence, ItemFacts},
    packet::{self, Contents, PacketFile},
    store::{
        custody as custody_store,
        packets::{self, PacketDownload},
    },
};

/// How much of the ZIP waits between the writer and the response (it pauses while full).
const PIPE_BYTES: usize = 256 * 1024;

/// A link's secret and when it stops working.
#[derive(Debug, Clone)]
pub struct Link {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// A packet being streamed: its file name, then its bytes.
pub struct Streamed {
    pub file_name: String,
    pub bytes: BoxStream<'static, Result<Bytes, SharingError>>,
}

/// What the packet can reach.
pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub evidence: Arc<dyn Evidence>,
    pub keys: &'a SigningKeys,
}

/// The verified files of the owner's folder a packet holds: `chosen`, or all when none are.
async fn selection(
    evidence: &dyn Evidence,
    owner: Uuid,
    folder_id: Uuid,
    chosen: &[Uuid],
) -> Result<(String, Vec<ItemFacts>), SharingError> {
    let folder = evidence.folder(owner, folder_id).await?;
    if folder.expired {
        return Err(SharingError::Expired);
    }
    let items = evidence.items(owner, folder_id).await?;
    let picked: Vec<ItemFacts> = if chosen.is_empty() {
        items.into_iter().filter(|i| i.verified).collect()
    } else {
        let mut seen = HashSet::new();
        let mut picked = Vec::new();
        for id in chosen {
            if !seen.insert(*id) {
                continue;
            }
            let item = items
                .iter()
                .find(|i| i.id == *id)
                .ok_or(SharingError::NotFound)?;
            if !item.verified {
                return Err(SharingError::invalid(
                    "item_ids",
                    "This file is not verified yet: it can be put in a packet once it is.",
                ));
            }
            picked.push(item.clone());
        }
        picked
    };
    if picked.is_empty() {
        return Err(SharingError::invalid(
            "item_ids",
            "This folder has no verified files yet.",
        ));
    }
    Ok((folder.name, picked))
}

/// A link to the packet of the owner's folder (or of `chosen` files in it).
pub async fn create(
    deps: &Deps<'_>,
    owner: Uuid,
    folder_id: Uuid,
    chosen: &[Uuid],
    ttl: std::time::Duration,
    now: DateTime<Utc>,
) -> Result<Link, SharingError> {
    let (_, picked) = selection(deps.evidence.as_ref(), owner, folder_id, chosen).await?;
    let token = secret();
    let expires_at = now + chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::minutes(10));
    let mut conn = deps.pool.acquire().await?;
    packets::insert(
        &mut conn,
        &hash_secret(&token),
        &PacketDownload {
            owner_id: owner,
            folder_id,
            item_ids: if chosen.is_empty() {
                Vec::new()
            } else {
                picked.iter().map(|i| i.id).collect()
            },
            expires_at,
        },
        now,
    )
    .await?;
    Ok(Link { token, expires_at })
}

/// Opens a link, once: the custody logs say the files were exported, their heads are signed, and
/// the ZIP streams. An unknown, spent or expired link is NotFound.
pub async fn open(
    deps: &Deps<'_>,
    token: &str,
    now: DateTime<Utc>,
) -> Result<Streamed, SharingError> {
    let download = {
        let mut conn = deps.pool.acquire().await?;
        packets::take(&mut conn, &hash_secret(token), now)
            .await?
            .ok_or(SharingError::NotFound)?
    };
    let owner = download.owner_id;
    let (folder_name, picked) = selection(
        deps.evidence.as_ref(),
        owner,
        download.folder_id,
        &download.item_ids,
    )
    .await?;
    let ids: Vec<Uuid> = picked.iter().map(|i| i.id).collect();

    let mut tx = deps.pool.begin().await?;
    for item in &picked {
        custody::seed(&mut tx, owner, item).await?;
        custody::append(
            &mut tx,
            owner,
            item.id,
            Kind::PacketExported,
            now,
            "exported in an evidence packet by its owner's download link",
        )
        .await?;
    }
    tx.commit().await?;
    custody::sign_heads(deps.pool, deps.keys, Some(&ids), now).await?;

    let (entries, heads) = {
        let mut conn = deps.pool.acquire().await?;
        (
            custody_store::for_items(&mut conn, owner, &ids).await?,
            custody_store::heads_for(&mut conn, owner, &ids).await?,
        )
    };
    let mut keys = deps.evidence.receipt_keys().await?;
    keys.extend(deps.keys.public_keys());
    let contents = Contents {
        folder_name: folder_name.clone(),
        generated_at: now,
        files: picked
            .into_iter()
            .map(|item| PacketFile {
                item_id: item.id,
                custody: entries
                    .iter()
                    .filter(|e| e.item_id == item.id)
                    .cloned()
                    .collect(),
                // Only heads of entries read: one signed between the two reads (a recipient's view
                // just then) would be past the log's end here.
                heads: heads
                    .iter()
                    .filter(|h| {
                        entries.iter().any(|e| {
                            e.item_id == item.id && e.seq == h.seq && e.item_id == h.item_id
                        })
                    })
                    .cloned()
                    .collect(),
                name: item.name,
                sha256: item.sha256,
                size: item.file_size,
                receipt: item.receipt,
            })
            .collect(),
        keys,
    };

    let (writer, reader) = tokio::io::duplex(PIPE_BYTES);
    let evidence = deps.evidence.clone();
    let signing = deps.keys.clone();
    let written = tokio::spawn(async move {
        let originals = move |item_id: Uuid| -> BoxStream<'static, io::Result<Bytes>> {
            let evidence = evidence.clone();
            futures::stream::once(async move { evidence.original(owner, item_id).await })
                .try_flatten()
                .map_err(|e| io::Error::other(e.to_string()))
                .boxed()
        };
        packet::write(writer, &contents, &signing, originals).await
    });
    // After the last byte, the writer's outcome: a packet that could not be finished ends the
    // stream with an error, so the download fails instead of looking whole.
    let outcome = futures::stream::once(async move {
        match written.await {
            Ok(Ok(_)) => None,
            Ok(Err(err)) => Some(Err(SharingError::Internal(anyhow::anyhow!(
                "the evidence packet could not be written: {err}"
            )))),
            Err(err) => Some(Err(SharingError::Internal(err.into()))),
        }
    })
    .filter_map(futures::future::ready);
    let bytes = ReaderStream::new(reader)
        .map_err(|e| SharingError::Internal(e.into()))
        .chain(outcome)
        .boxed();
    Ok(Streamed {
        file_name: file_name(&folder_name, now),
        bytes,
    })
}

/// `evidence-packet-FOLDER-YYYY-MM-DD.zip`, in characters any file system takes.
fn file_name(folder: &str, now: DateTime<Utc>) -> String {
    let safe: String = folder
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let safe: String = safe.chars().take(60).collect();
    format!(
        "evidence-packet-{}{}.zip",
        if safe.is_empty() {
            String::new()
        } else {
            format!("{safe}-")
        },
        now.format("%Y-%m-%d")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_name_keeps_the_folder_readable() {
        let now = DateTime::parse_from_rfc3339("2026-11-27T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            file_name("Flat 3 / move-out", now),
            "evidence-packet-Flat-3-move-out-2026-11-27.zip"
        );
        assert_eq!(file_name("ü", now), "evidence-packet-2026-11-27.zip");
    }
}
