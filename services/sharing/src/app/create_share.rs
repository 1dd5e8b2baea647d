//! Buying a share: check the folder and items with evidence, record the share (awaiting payment)
//! with one delivery per recipient, pay through payments with a key derived from the share, and
//! once paid, queue a copy per recipient and item and log each item as shared. A retry with the
//! same idempotency key continues the same share, so there is one share and one charge.

use evidentia_proto::payments::v1 as payments;
use sqlx::PgPool;
use tonic::Code;
use uuid::Uuid;

use crate::{
    app::{
        custody::{self, Kind, Whose},
        owner::{self, ShareView},
    },
    directory,
    domain::{CopyType, Recipient, TransactionNumber},
    error::SharingError,
    outbound::{Evidence, FolderFacts, ItemFacts, Payments},
    store::{
        copies, deliveries,
        shares::{self, NewShareRow, Paid, ShareItemRow},
    },
};

pub struct NewShare {
    pub folder_id: Uuid,
    pub copy_type: CopyType,
    /// Empty: every file of the folder.
    pub item_ids: Vec<Uuid>,
    pub recipients: Vec<Recipient>,
    /// `wallet` or `card` (payments checks it).
    pub pay_with: String,
    pub idempotency_key: String,
    /// A hash of the request, so a key reused for another request is refused.
    pub request_hash: String,
}

pub struct Created {
    pub share: ShareView,
    pub payment: payments::PayResponse,
}

pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub evidence: &'a dyn Evidence,
    pub payments: &'a dyn Payments,
    pub links: &'a crate::app::links::Links,
}

#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %new.folder_id))]
pub async fn create_share(
    deps: &Deps<'_>,
    owner: Uuid,
    new: NewShare,
) -> Result<Created, SharingError> {
    let folder = deps.evidence.folder(owner, new.folder_id).await?;
    let (folder_ref, new_ref) = (&folder, &new);
    let (share_id, fresh) = claim(deps.pool, owner, &new, move || async move {
        let items = prepare(deps.evidence, owner, folder_ref, new_ref).await?;
        let mut tx = deps.pool.begin().await?;
        let recorded = record(&mut tx, owner, folder_ref, new_ref, &items).await?;
        if recorded.is_some() {
            tx.commit().await?;
        }
        Ok(recorded)
    })
    .await?;
    // The items stay in their folder until the copies are made: a delete meanwhile is refused
    // instead of leaving a paid share whose copies can never be made.
    {
        let mut conn = deps.pool.acquire().await?;
        shares::mark_items_held(&mut conn, share_id).await?;
    }
    hold_unpaid(deps.pool, deps.evidence, owner, share_id).await?;
    let payment = pay(deps, owner, &folder, &new, share_id, fresh).await?;
    activate(deps, owner, share_id, &payment_number(&payment)).await?;
    let mut conn = deps.pool.acquire().await?;
    let share = owner::share_view(&mut conn, deps.links, owner, share_id).await?;
    Ok(Created { share, payment })
}

/// The share an earlier request with the same idempotency key recorded; a key reused for
/// another request is refused.
pub async fn existing(
    pool: &PgPool,
    owner: Uuid,
    new: &NewShare,
) -> Result<Option<Uuid>, SharingError> {
    let mut conn = pool.acquire().await?;
    match shares::find_request(&mut conn, owner, &new.idempotency_key).await? {
        Some(request) if request.request_hash != new.request_hash => Err(SharingError::KeyReused),
        Some(request) => Ok(Some(request.share_id)),
        None => Ok(None),
    }
}

/// How many times a request tries to record its share while other requests with its key take
/// and free it; each free is a payment refused, so more than a few means something is wrong.
const CLAIM_ATTEMPTS: usize = 5;

/// The share this request continues and whether it recorded it itself (`fresh`): an earlier
/// request's share when one holds the key, otherwise what `record_new` records. When a concurrent
/// request took the key first (`record_new` answers None, its writes rolled back), that request's
/// share is continued, as a retry's is; when that request's payment was refused meanwhile, which
/// forgets its share and frees the key, this one starts afresh, as a retry would.
pub async fn claim<F, Fut>(
    pool: &PgPool,
    owner: Uuid,
    new: &NewShare,
    mut record_new: F,
) -> Result<(Uuid, bool), SharingError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Option<Uuid>, SharingError>>,
{
    for _ in 0..CLAIM_ATTEMPTS {
        if let Some(share_id) = existing(pool, owner, new).await? {
            return Ok((share_id, false));
        }
        if let Some(share_id) = record_new().await? {
            return Ok((share_id, true));
        }
    }
    Err(SharingError::Internal(anyhow::anyhow!(
        "the idempotency key changed hands {CLAIM_ATTEMPTS} times"
    )))
}

/// Holds the items of a share still awaiting payment in evidence, under the share's id. A retry
/// with the same key may continue a share whose first request has not placed it yet; a paid
/// share keeps what its first request held. A hold refused (an item or the folder gone) forgets
/// the unpaid share, so nothing is paid and a retry starts afresh.
pub async fn hold_unpaid(
    pool: &PgPool,
    evidence: &dyn Evidence,
    owner: Uuid,
    share_id: Uuid,
) -> Result<(), SharingError> {
    let ids: Vec<Uuid> = {
        let mut conn = pool.acquire().await?;
        let share = shares::get(&mut conn, share_id)
            .await?
            .ok_or(SharingError::NotFound)?;
        if share.state != "awaiting_payment" {
            return Ok(());
        }
        let items = shares::items(&mut conn, share_id).await?;
        items.into_iter().map(|item| item.item_id).collect()
    };
    if let Err(err) = evidence.hold(owner, share_id, &ids).await {
        let mut conn = pool.acquire().await?;
        shares::delete_unpaid(&mut conn, share_id).await?;
        return Err(err);
    }
    Ok(())
}

/// Pays for the recorded share with a key derived from it. A refusal (nothing was charged)
/// forgets the share and lets go of its held items (best effort: releasing a hold never placed
/// changes nothing), so a retry with the key starts afresh.
pub async fn pay(
    deps: &Deps<'_>,
    owner: Uuid,
    folder: &FolderFacts,
    new: &NewShare,
    share_id: Uuid,
    fresh: bool,
) -> Result<payments::PayResponse, SharingError> {
    match deps
        .payments
        .pay(owner, pay_request(folder, new, share_id))
        .await
    {
        Ok(payment) => Ok(payment),
        Err(SharingError::Upstream(status)) if refused(status.code()) => {
            let mut conn = deps.pool.acquire().await?;
            shares::delete_unpaid(&mut conn, share_id).await?;
            deps.evidence.release_hold(owner, share_id).await.ok();
            Err(SharingError::Upstream(status))
        }
        Err(other) => {
            if fresh {
                tracing::warn!(share.id = %share_id, "payment outcome unknown; a retry with the same key continues the share");
            }
            Err(other)
        }
    }
}

pub fn payment_number(payment: &payments::PayResponse) -> String {
    payment
        .transaction
        .as_ref()
        .map(|t| t.transaction_number.clone())
        .unwrap_or_default()
}

/// Payments answered with a refusal (a declined card, a bad choice): nothing was charged.
fn refused(code: Code) -> bool {
    matches!(
        code,
        Code::InvalidArgument
            | Code::FailedPrecondition
            | Code::NotFound
            | Code::PermissionDenied
            | Code::AlreadyExists
            | Code::ResourceExhausted
    )
}

fn pay_request(folder: &FolderFacts, new: &NewShare, share_id: Uuid) -> payments::PayRequest {
    payments::PayRequest {
        kind: "sharing".to_owned(),
        folder: Some(payments::FolderSnapshot {
            folder_id: folder.id.to_string(),
            used_bytes: folder.used_bytes,
            storage_expires_at: folder.storage_expires_at,
        }),
        months: 0,
        pay_with: new.pay_with.clone(),
        idempotency_key: format!("share-{share_id}"),
        share: Some(payments::SharePurchase {
            share_id: share_id.to_string(),
            copy_type: new.copy_type.as_str().to_owned(),
            recipients: i32::try_from(new.recipients.len()).unwrap_or(i32::MAX),
        }),
    }
}

pub const REJECTED_MESSAGE: &str =
    "A chosen file failed its check on upload. Delete it or take it again, then share.";

/// The items a share takes: every file of the folder but those rejected on upload (they are not
/// evidence, and waiting will not change them), or the chosen ones; each must be stored and
/// verified.
fn choose(items: Vec<ItemFacts>, chosen: &[Uuid]) -> Result<Vec<ItemFacts>, SharingError> {
    let picked: Vec<ItemFacts> = if chosen.is_empty() {
        items.into_iter().filter(|item| !item.rejected).collect()
    } else {
        let mut picked = Vec::with_capacity(chosen.len());
        for id in chosen {
            match items.iter().find(|item| item.id == *id) {
                Some(item) if !picked.iter().any(|p: &ItemFacts| p.id == *id) => {
                    picked.push(item.clone());
                }
                Some(_) => {}
                None => {
                    return Err(SharingError::invalid(
                        "item_ids",
                        "Choose files from this folder.",
                    ));
                }
            }
        }
        picked
    };
    if picked.is_empty() {
        return Err(SharingError::invalid(
            "item_ids",
            "There are no files to share in this folder.",
        ));
    }
    if picked.iter().any(|item| item.rejected) {
        return Err(SharingError::invalid("item_ids", REJECTED_MESSAGE));
    }
    if picked.iter().any(|item| !item.verified) {
        return Err(SharingError::invalid(
            "item_ids",
            "Wait until the chosen files are uploaded.",
        ));
    }
    Ok(picked)
}

/// The items a new share takes, checked: the folder has not expired, each is stored and verified.
pub async fn prepare(
    evidence: &dyn Evidence,
    owner: Uuid,
    folder: &FolderFacts,
    new: &NewShare,
) -> Result<Vec<ItemFacts>, SharingError> {
    if folder.expired {
        return Err(SharingError::Expired);
    }
    choose(evidence.items(owner, folder.id).await?, &new.item_ids)
}

/// Records the share awaiting payment, in the caller's transaction: its items (as they are
/// now), one delivery per recipient, and the request's idempotency key. None when a concurrent
/// request with the same key recorded its share first: the caller rolls back and continues that
/// one ([`claim`]).
pub async fn record(
    tx: &mut sqlx::PgConnection,
    owner: Uuid,
    folder: &FolderFacts,
    new: &NewShare,
    items: &[ItemFacts],
) -> Result<Option<Uuid>, SharingError> {
    let generated_for = match new.copy_type {
        CopyType::Authenticated => Some(
            directory::find(&mut *tx, owner)
                .await?
                .ok_or(SharingError::NotFound)?
                .display_name(),
        ),
        CopyType::Unauthenticated => None,
    };
    let share_id = Uuid::now_v7();
    shares::insert(
        &mut *tx,
        &NewShareRow {
            id: share_id,
            owner_id: owner,
            folder_id: folder.id,
            folder_name: &folder.name,
            copy_type: new.copy_type.as_str(),
            generated_for: generated_for.as_deref(),
        },
    )
    .await?;
    for (position, item) in items.iter().enumerate() {
        shares::insert_item(
            &mut *tx,
            share_id,
            &ShareItemRow {
                item_id: item.id,
                position: i32::try_from(position).unwrap_or(i32::MAX),
                name: item.name.clone(),
                media_type: item.media_type.to_owned(),
                original_sha256: item.sha256.clone(),
                captured_at: item.captured_at,
                received_at: item.received_at,
                latitude: item.latitude,
                longitude: item.longitude,
                city: item.city.clone(),
                address: item.address.clone(),
                duration_seconds: item.duration_seconds,
                receipt: item.receipt.as_ref().map(|r| r.payload.clone()),
                receipt_signature: item.receipt.as_ref().map(|r| r.signature.clone()),
                receipt_key_id: item.receipt.as_ref().map(|r| r.key_id.clone()),
            },
        )
        .await?;
        custody::seed(&mut *tx, owner, item).await?;
    }
    for recipient in &new.recipients {
        add_delivery(
            &mut *tx,
            share_id,
            recipient.channel(),
            &recipient.address(),
            &recipient.sent_to(),
        )
        .await?;
    }
    let recorded = shares::insert_request(
        &mut *tx,
        owner,
        &new.idempotency_key,
        &new.request_hash,
        share_id,
    )
    .await?;
    Ok(recorded.then_some(share_id))
}

/// A delivery with a fresh transaction number (drawn again on the rare collision).
pub async fn add_delivery(
    conn: &mut sqlx::PgConnection,
    share_id: Uuid,
    channel: &str,
    address: &str,
    sent_to: &str,
) -> Result<Uuid, SharingError> {
    let id = Uuid::now_v7();
    for _ in 0..8 {
        let number = TransactionNumber::generate();
        let inserted = deliveries::insert(
            conn,
            &deliveries::NewDelivery {
                id,
                share_id,
                channel,
                address,
                sent_to,
                transaction_number: number.as_str(),
            },
        )
        .await?;
        if inserted {
            return Ok(id);
        }
    }
    Err(SharingError::Internal(anyhow::anyhow!(
        "no free transaction number after 8 draws"
    )))
}

/// Once paid: a copy to render for every recipient and item, and each item's custody log says
/// to whom it was shared. Done once, by whichever call moves the share to active.
async fn activate(
    deps: &Deps<'_>,
    owner: Uuid,
    share_id: Uuid,
    payment_number: &str,
) -> Result<(), SharingError> {
    let mut tx = deps.pool.begin().await?;
    if !shares::mark_paid(&mut tx, share_id, payment_number, Paid::Active).await? {
        return Ok(());
    }
    queue_copies(&mut tx, owner, share_id).await?;
    tx.commit().await?;
    Ok(())
}

/// A copy to render for every recipient and item of a share that has just become active, and
/// a custody entry per item and recipient.
pub async fn queue_copies(
    tx: &mut sqlx::PgConnection,
    owner: Uuid,
    share_id: Uuid,
) -> Result<(), SharingError> {
    let share = shares::get(&mut *tx, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let items = shares::items(&mut *tx, share_id).await?;
    for delivery in deliveries::for_share(&mut *tx, share_id).await? {
        for item in &items {
            copies::insert(
                &mut *tx,
                Uuid::now_v7(),
                delivery.id,
                share_id,
                item.item_id,
            )
            .await?;
            custody::append(
                &mut *tx,
                owner,
                item.item_id,
                Whose::delivery(share.id, delivery.id),
                Kind::Shared,
                share.created_at,
                &format!(
                    "to {} as an {} copy, {}",
                    delivery.sent_to, share.copy_type, delivery.transaction_number
                ),
            )
            .await?;
        }
    }
    Ok(())
}
