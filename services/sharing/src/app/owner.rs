//! The owner's side of sharing: a folder's shares with their recipients and states, revoking a
//! share (its tokens fail at once, its copies are deleted), the public link of an
//! unauthenticated share, and each item's custody log with its check.

use chrono::Utc;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        create_share::add_delivery,
        custody::{self, Kind, Whose},
        links::Links,
    },
    error::SharingError,
    outbound::{CopyStore, Evidence},
    store::{
        access, copies,
        custody::{self as custody_store, EntryRow},
        deliveries::{self, DeliveryRow},
        shares::{self, ShareRow},
    },
};

/// What the public link's copies say under 'Sent To'.
pub const PUBLIC_LINK_SENT_TO: &str = "Anyone with the link";

#[derive(Debug, Clone)]
pub struct RecipientView {
    pub delivery: DeliveryRow,
    pub copies_ready: i32,
    pub copies_total: i32,
}

#[derive(Debug, Clone)]
pub struct ShareView {
    pub share: ShareRow,
    pub item_count: i32,
    /// The URL and whether it is on.
    pub public_link: Option<(String, bool)>,
    pub recipients: Vec<RecipientView>,
}

pub async fn share_view(
    conn: &mut PgConnection,
    links: &Links,
    owner: Uuid,
    share_id: Uuid,
) -> Result<ShareView, SharingError> {
    let share = shares::get_owned(conn, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    view_of(conn, links, share).await
}

async fn view_of(
    conn: &mut PgConnection,
    links: &Links,
    share: ShareRow,
) -> Result<ShareView, SharingError> {
    let item_count = i32::try_from(shares::items(conn, share.id).await?.len()).unwrap_or(0);
    let all_copies = copies::for_share(conn, share.id).await?;
    let mut public_link = None;
    let mut recipients = Vec::new();
    for delivery in deliveries::for_share(conn, share.id).await? {
        if delivery.channel == "link" {
            public_link = Some((links.public_url(delivery.id), delivery.active));
            continue;
        }
        let mine = all_copies.iter().filter(|c| c.delivery_id == delivery.id);
        let copies_total = i32::try_from(mine.clone().count()).unwrap_or(0);
        let copies_ready = i32::try_from(mine.filter(|c| c.state == "ready").count()).unwrap_or(0);
        recipients.push(RecipientView {
            delivery,
            copies_ready,
            copies_total,
        });
    }
    Ok(ShareView {
        share,
        item_count,
        public_link,
        recipients,
    })
}

#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %folder_id))]
pub async fn folder_shares(
    pool: &PgPool,
    evidence: &dyn Evidence,
    links: &Links,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<Vec<ShareView>, SharingError> {
    // Another user's folder is NotFound here too, not an empty list.
    evidence.folder(owner, folder_id).await?;
    let mut conn = pool.acquire().await?;
    let mut views = Vec::new();
    for share in shares::list_for_folder(&mut conn, owner, folder_id).await? {
        views.push(view_of(&mut conn, links, share).await?);
    }
    Ok(views)
}

/// Ends a share: its access tokens are deleted in the same transaction (they fail at once), its
/// links stop opening it, each item's log says so, and its copies' objects are deleted.
#[tracing::instrument(skip_all, fields(user.id = %owner, share.id = %share_id))]
pub async fn revoke(
    pool: &PgPool,
    store: &dyn CopyStore,
    links: &Links,
    owner: Uuid,
    share_id: Uuid,
) -> Result<ShareView, SharingError> {
    let mut tx = pool.begin().await?;
    let share = shares::get_owned(&mut tx, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let mut keys = Vec::new();
    if share.state == "active" {
        shares::revoke(&mut tx, share_id).await?;
        access::end_tokens(&mut tx, share_id).await?;
        keys = copies::release_objects(&mut tx, share_id).await?;
        for item in shares::items(&mut tx, share_id).await? {
            custody::append(
                &mut tx,
                owner,
                item.item_id,
                Whose::share(share_id),
                Kind::Revoked,
                Utc::now(),
                "the share was revoked by its owner",
            )
            .await?;
        }
    }
    tx.commit().await?;
    // After the commit: S3 is slow, and a copy whose delete fails is unreachable anyway.
    if let Err(err) = store.delete(keys).await {
        tracing::error!(error = ?err, "deleting a revoked share's copies failed");
    }
    let mut conn = pool.acquire().await?;
    share_view(&mut conn, links, owner, share_id).await
}

/// Turns the public link of an unauthenticated share on or off (made on first use, with its
/// own transaction number and copies).
#[tracing::instrument(skip_all, fields(user.id = %owner, share.id = %share_id))]
pub async fn set_public_link(
    pool: &PgPool,
    links: &Links,
    owner: Uuid,
    share_id: Uuid,
    active: bool,
) -> Result<(String, bool), SharingError> {
    let mut tx = pool.begin().await?;
    let share = shares::get_owned(&mut tx, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    if share.copy_type != "unauthenticated" {
        return Err(SharingError::invalid(
            "share_id",
            "A public link can show unauthenticated copies only.",
        ));
    }
    if share.state != "active" {
        return Err(SharingError::invalid("share_id", "This share was revoked."));
    }
    let delivery = match deliveries::link_of(&mut tx, share_id).await? {
        Some(existing) => {
            deliveries::set_active(&mut tx, existing.id, active).await?;
            existing.id
        }
        None => {
            let id = add_delivery(&mut tx, share_id, "link", "", PUBLIC_LINK_SENT_TO).await?;
            deliveries::set_active(&mut tx, id, active).await?;
            for item in shares::items(&mut tx, share_id).await? {
                copies::insert(&mut tx, Uuid::now_v7(), id, share_id, item.item_id).await?;
                custody::append(
                    &mut tx,
                    owner,
                    item.item_id,
                    Whose::delivery(share_id, id),
                    Kind::Shared,
                    Utc::now(),
                    "to anyone with the public link, as an unauthenticated copy",
                )
                .await?;
            }
            id
        }
    };
    tx.commit().await?;
    Ok((links.public_url(delivery), active))
}

#[derive(Debug, Clone)]
pub struct ItemCustody {
    pub item_id: Uuid,
    pub name: String,
    pub media_type: &'static str,
    pub shared_counter: i32,
    pub sharing_available_counter: i32,
    pub entries: Vec<EntryRow>,
}

/// Every item of the owner's folder with its sharing counters and custody log.
#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %folder_id))]
pub async fn folder_custody(
    pool: &PgPool,
    evidence: &dyn Evidence,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<Vec<ItemCustody>, SharingError> {
    evidence.folder(owner, folder_id).await?;
    let items = evidence.items(owner, folder_id).await?;
    let ids: Vec<Uuid> = items.iter().map(|i| i.id).collect();
    let mut conn = pool.acquire().await?;
    let entries = custody_store::for_items(&mut conn, owner, &ids).await?;
    let counters = shares::counters(&mut conn, owner, folder_id).await?;
    Ok(items
        .into_iter()
        .map(|item| {
            let counter = counters.iter().find(|c| c.item_id == item.id);
            ItemCustody {
                item_id: item.id,
                media_type: item.media_type,
                shared_counter: counter.map_or(0, |c| i32::try_from(c.shared).unwrap_or(i32::MAX)),
                sharing_available_counter: counter
                    .map_or(0, |c| i32::try_from(c.available).unwrap_or(i32::MAX)),
                entries: entries
                    .iter()
                    .filter(|e| e.item_id == item.id)
                    .cloned()
                    .collect(),
                name: item.name,
            }
        })
        .collect())
}

#[derive(Debug, Clone)]
pub struct ItemCheck {
    pub item_id: Uuid,
    pub entries: i32,
    pub first_broken: Option<EntryRow>,
}

/// Walks every item's chain and names the first entry that does not hold.
pub async fn check_folder_custody(
    pool: &PgPool,
    evidence: &dyn Evidence,
    owner: Uuid,
    folder_id: Uuid,
) -> Result<Vec<ItemCheck>, SharingError> {
    Ok(folder_custody(pool, evidence, owner, folder_id)
        .await?
        .into_iter()
        .map(|item| ItemCheck {
            item_id: item.item_id,
            entries: i32::try_from(item.entries.len()).unwrap_or(i32::MAX),
            first_broken: custody::first_broken(&item.entries).cloned(),
        })
        .collect())
}
