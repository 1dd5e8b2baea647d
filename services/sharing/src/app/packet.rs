//! Evidence packets (see `crate::packet` for what one holds): the owner's, of a folder's
//! originals, and a recipient's, of the copies their delivery received. Asking for one gives a
//! short-lived, single-use link; opening the link records the export in each file's custody log,
//! signs the logs' heads, and streams the ZIP while it is written: the files pass through in
//! chunks, so a folder of many gigabytes takes neither memory nor disk here.
//!
//! A recipient's packet shows the custody entries that are theirs, their share's, or name nobody
//! in full; of the entries about other recipients only the chain links, so the log still verifies
//! end to end without telling one recipient who else received the files.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    io,
    sync::Arc,
};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use evidentia_common::signing::SigningKeys;
use futures::{StreamExt, TryStreamExt, stream::BoxStream};
use sqlx::PgPool;
use tokio_util::io::ReaderStream;
use uuid::Uuid;

use crate::{
    app::{
        access::{Pass, authorize},
        custody::{self, Kind, Whose, readable_by},
        links::Links,
        view::download_name,
    },
    domain::{hash_secret, secret},
    error::SharingError,
    outbound::{CopyStore, Evidence, ItemFacts, SignedReceipt},
    packet::{self, Contents, PacketFile, Recipient},
    store::{
        copies, custody as custody_store,
        deliveries::Opened,
        packets::{self, PacketDownload},
        shares,
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
    pub links: &'a Links,
    pub evidence: Arc<dyn Evidence>,
    pub copies: Arc<dyn CopyStore>,
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

/// A file a packet will hold, and where its bytes come from.
struct Planned {
    item_id: Uuid,
    name: String,
    sha256: String,
    size: i64,
    original_sha256: Option<String>,
    receipt: Option<SignedReceipt>,
    /// A copy's object key; `None`: the original, from evidence.
    copy_key: Option<String>,
}

/// The copies a recipient's delivery received that are ready, with their originals' facts as
/// they were when shared. An expired or deleted folder has no copies left to give.
async fn received(deps: &Deps<'_>, opened: &Opened) -> Result<Vec<Planned>, SharingError> {
    match deps
        .evidence
        .folder(opened.owner_id, opened.folder_id)
        .await
    {
        Ok(folder) if folder.expired => return Err(SharingError::Expired),
        Ok(_) => {}
        Err(SharingError::NotFound) => return Err(SharingError::Expired),
        Err(other) => return Err(other),
    }
    // The receipts as evidence has them now (with a timestamp that came after the share).
    let current = deps
        .evidence
        .items(opened.owner_id, opened.folder_id)
        .await?;
    let mut conn = deps.pool.acquire().await?;
    let items = shares::items(&mut conn, opened.delivery.share_id).await?;
    let rows = copies::for_delivery(&mut conn, opened.delivery.id).await?;
    let planned: Vec<Planned> = items
        .into_iter()
        .filter_map(|item| {
            let row = rows.iter().find(|r| r.item_id == item.item_id)?;
            let (Some(key), Some(sha256), Some(size)) =
                (row.object_key.clone(), row.sha256.clone(), row.size_bytes)
            else {
                return None;
            };
            if row.state != "ready" {
                return None;
            }
            let as_shared = match (item.receipt, item.receipt_signature, item.receipt_key_id) {
                (Some(payload), Some(signature), Some(key_id)) => Some(SignedReceipt {
                    payload,
                    signature,
                    key_id,
                    timestamp: None,
                }),
                _ => None,
            };
            let receipt = current
                .iter()
                .find(|i| i.id == item.item_id)
                .and_then(|i| i.receipt.clone())
                .or(as_shared);
            Some(Planned {
                item_id: item.item_id,
                name: download_name(&item.name, row.content_type.as_deref()),
                sha256,
                size,
                original_sha256: Some(item.original_sha256),
                receipt,
                copy_key: Some(key),
            })
        })
        .collect();
    if planned.is_empty() {
        return Err(SharingError::invalid(
            "copies",
            "No copy is ready yet: the packet can be made once one is.",
        ));
    }
    Ok(planned)
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
    let item_ids = if chosen.is_empty() {
        Vec::new()
    } else {
        picked.iter().map(|i| i.id).collect()
    };
    remember(deps, owner, folder_id, item_ids, None, ttl, now).await
}

/// A link to the packet of the copies a recipient received (by their access token).
pub async fn create_for_recipient(
    deps: &Deps<'_>,
    access_token: &str,
    ttl: std::time::Duration,
    now: DateTime<Utc>,
) -> Result<Link, SharingError> {
    let opened = authorize(deps.pool, deps.links, &Pass::Token(access_token)).await?;
    received(deps, &opened).await?;
    remember(
        deps,
        opened.owner_id,
        opened.folder_id,
        Vec::new(),
        Some(opened.delivery.id),
        ttl,
        now,
    )
    .await
}

async fn remember(
    deps: &Deps<'_>,
    owner: Uuid,
    folder_id: Uuid,
    item_ids: Vec<Uuid>,
    delivery_id: Option<Uuid>,
    ttl: std::time::Duration,
    now: DateTime<Utc>,
) -> Result<Link, SharingError> {
    let token = secret();
    let expires_at = now + chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::minutes(10));
    let mut conn = deps.pool.acquire().await?;
    packets::insert(
        &mut conn,
        &hash_secret(&token),
        &PacketDownload {
            owner_id: owner,
            folder_id,
            item_ids,
            delivery_id,
            expires_at,
        },
        now,
    )
    .await?;
    Ok(Link { token, expires_at })
}

/// Opens a link, once: the custody logs say the files were exported, their heads are signed, and
/// the ZIP streams. An unknown, spent or expired link is NotFound; a recipient's whose access
/// ended since is too.
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
    match download.delivery_id {
        None => {
            let (folder_name, picked) = selection(
                deps.evidence.as_ref(),
                owner,
                download.folder_id,
                &download.item_ids,
            )
            .await?;
            let mut tx = deps.pool.begin().await?;
            for item in &picked {
                custody::seed(&mut tx, owner, item).await?;
            }
            tx.commit().await?;
            let files = picked
                .into_iter()
                .map(|item| Planned {
                    item_id: item.id,
                    name: item.name,
                    sha256: item.sha256,
                    size: item.file_size,
                    original_sha256: None,
                    receipt: item.receipt,
                    copy_key: None,
                })
                .collect();
            stream(deps, owner, folder_name, None, files, now).await
        }
        Some(delivery) => {
            let opened = authorize(deps.pool, deps.links, &Pass::Delivery(delivery))
                .await
                .map_err(|err| match err {
                    // Revoked or ended since the link was made: the link opens nothing. Other
                    // failures (the database) stay what they are.
                    SharingError::LinkInvalid => SharingError::NotFound,
                    other => other,
                })?;
            let files = received(deps, &opened).await?;
            let folder_name = opened.folder_name.clone();
            stream(deps, owner, folder_name, Some(&opened), files, now).await
        }
    }
}

/// Records the export, signs the heads, reads the logs back and streams the packet.
async fn stream(
    deps: &Deps<'_>,
    owner: Uuid,
    folder_name: String,
    recipient: Option<&Opened>,
    files: Vec<Planned>,
    now: DateTime<Utc>,
) -> Result<Streamed, SharingError> {
    let ids: Vec<Uuid> = files.iter().map(|f| f.item_id).collect();
    let (whose, detail) = match recipient {
        None => (
            Whose::OWNER,
            "exported in an evidence packet by its owner's download link".to_owned(),
        ),
        Some(opened) => (
            Whose::delivery(opened.delivery.share_id, opened.delivery.id),
            format!(
                "copies exported in an evidence packet by {} ({})",
                opened.delivery.sent_to, opened.delivery.transaction_number
            ),
        ),
    };
    let mut tx = deps.pool.begin().await?;
    for id in &ids {
        custody::append(
            &mut tx,
            owner,
            *id,
            whose,
            Kind::PacketExported,
            now,
            &detail,
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
    let published = deps.evidence.receipt_keys().await?;
    let mut keys = published.keys;
    keys.extend(deps.keys.public_keys());
    let copy_keys: HashMap<Uuid, String> = files
        .iter()
        .filter_map(|f| f.copy_key.clone().map(|key| (f.item_id, key)))
        .collect();
    let contents = Contents {
        folder_name: folder_name.clone(),
        generated_at: now,
        recipient: recipient.map(|opened| Recipient {
            sent_to: opened.delivery.sent_to.clone(),
            transaction_number: opened.delivery.transaction_number.clone(),
        }),
        files: files
            .into_iter()
            .map(|file| {
                let custody: Vec<_> = entries
                    .iter()
                    .filter(|e| e.item_id == file.item_id)
                    .cloned()
                    .collect();
                let withheld: BTreeSet<i64> = match recipient {
                    None => BTreeSet::new(),
                    Some(opened) => custody
                        .iter()
                        .filter(|e| !readable_by(e, opened.delivery.share_id, opened.delivery.id))
                        .map(|e| e.seq)
                        .collect(),
                };
                PacketFile {
                    item_id: file.item_id,
                    // Only heads of entries read: one signed between the two reads (a
                    // recipient's view just then) would be past the log's end here.
                    heads: heads
                        .iter()
                        .filter(|h| {
                            h.item_id == file.item_id && custody.iter().any(|e| e.seq == h.seq)
                        })
                        .cloned()
                        .collect(),
                    custody,
                    withheld,
                    name: file.name,
                    sha256: file.sha256,
                    size: file.size,
                    original_sha256: file.original_sha256,
                    receipt: file.receipt,
                }
            })
            .collect(),
        keys,
        timestamp_authority_pem: published.timestamp_authority_pem,
    };

    let (writer, reader) = tokio::io::duplex(PIPE_BYTES);
    let evidence = deps.evidence.clone();
    let copies = deps.copies.clone();
    let signing = deps.keys.clone();
    let written = tokio::spawn(async move {
        let sources = move |item_id: Uuid| -> BoxStream<'static, io::Result<Bytes>> {
            let evidence = evidence.clone();
            let copies = copies.clone();
            let copy_key = copy_keys.get(&item_id).cloned();
            futures::stream::once(async move {
                match copy_key {
                    Some(key) => copies
                        .get(&key)
                        .await
                        .map_err(|e| io::Error::other(e.to_string())),
                    None => evidence
                        .original(owner, item_id)
                        .await
                        .map(|s| s.map_err(|e| io::Error::other(e.to_string())).boxed())
                        .map_err(|e| io::Error::other(e.to_string())),
                }
            })
            .try_flatten()
            .boxed()
        };
        packet::write(writer, &contents, &signing, sources).await
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
        file_name: file_name(&folder_name, recipient.is_some(), now),
        bytes,
    })
}

/// `evidence-packet-FOLDER-YYYY-MM-DD.zip` (`evidence-packet-copies-…` for a recipient's), in
/// characters any file system takes.
fn file_name(folder: &str, copies: bool, now: DateTime<Utc>) -> String {
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
        "evidence-packet-{}{}{}.zip",
        if copies { "copies-" } else { "" },
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
            file_name("Flat 3 / move-out", false, now),
            "evidence-packet-Flat-3-move-out-2026-11-27.zip"
        );
        assert_eq!(file_name("ü", false, now), "evidence-packet-2026-11-27.zip");
        assert_eq!(
            file_name("Flat 3", true, now),
            "evidence-packet-copies-Flat-3-2026-11-27.zip"
        );
    }
}
