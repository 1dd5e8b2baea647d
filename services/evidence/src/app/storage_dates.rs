//! Storage dates: a folder's date moves later (an owner's paid extension, or another service
//! asking), publishing `StorageDateChanged`; an expired folder whose files are still kept becomes
//! usable again, and its next expiry is announced again.

use chrono::{DateTime, SubsecRound, Utc};
use evidentia_common::{
    errors::FieldError,
    handler, outbox,
    time::{datetime, timestamp},
};
use evidentia_proto::events::v1::{
    StorageDateChanged, StorageExtensionPaid, StorageExtensionRefused,
};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{app::folders::owned, domain::Folder, error::EvidenceError, store::folders};

pub const PURGED_MESSAGE: &str =
    "The files of this folder were deleted after its storage date; it cannot be extended.";

/// Moves the owner's folder's storage date to `until` (later than the current date and than
/// now) and publishes `StorageDateChanged`.
#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %id))]
pub async fn extend(
    pool: &PgPool,
    owner: Uuid,
    id: Uuid,
    until: DateTime<Utc>,
) -> Result<Folder, EvidenceError> {
    let mut tx = pool.begin().await?;
    let dates = folders::lock_dates(&mut tx, owner, id)
        .await?
        .ok_or(EvidenceError::NotFound)?;
    move_locked(&mut tx, owner, id, dates, until).await?;
    let folder = owned(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok(folder)
}

/// Moves the date of a folder whose row the caller locked and read (`dates`) to `until`, in the
/// caller's transaction; answers the date as stored.
async fn move_locked(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
    dates: folders::Dates,
    until: DateTime<Utc>,
) -> Result<DateTime<Utc>, EvidenceError> {
    if dates.purged_at.is_some() {
        return Err(EvidenceError::WrongState(PURGED_MESSAGE));
    }
    let previous = dates.storage_expires_at;
    if until <= previous || until <= Utc::now() {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "storage_expires_at",
            "The new storage date must be later than the current one.",
        )]));
    }
    // The stored date (microseconds) is the one announced.
    let until = folders::set_storage_date(conn, id, until).await?;
    outbox::enqueue(
        conn,
        &StorageDateChanged {
            folder_id: id.to_string(),
            owner_id: owner.to_string(),
            previous_storage_expires_at: Some(timestamp(previous)),
            storage_expires_at: Some(timestamp(until)),
        },
    )
    .await?;
    Ok(until)
}

/// A paid storage extension (payments' StorageExtensionPaid) moves the folder's date to the paid
/// one. The consumer runs each event once (a redelivery is skipped), so a folder already that late
/// means the purchase bought nothing: another purchase, quoted from the same date, got there
/// first (two tabs, two devices). That purchase, like one for a folder deleted or purged since, is
/// answered with StorageExtensionRefused (in the same transaction), and payments refunds it.
pub struct ExtendOnPayment;

pub const ALREADY_EXTENDED_MESSAGE: &str =
    "The folder's storage date had already been extended to this date or later.";

handler!(ExtendOnPayment, StorageExtensionPaid, |conn, event| {
    let owner = Uuid::parse_str(&event.owner_id)?;
    let id = Uuid::parse_str(&event.folder_id)?;
    let until = event
        .storage_expires_at
        .as_ref()
        .and_then(datetime)
        .ok_or_else(|| anyhow::anyhow!("StorageExtensionPaid without a date"))?
        // Compared as it would be stored (microseconds): a date finer than that is the same
        // date, not a later one.
        .trunc_subsecs(6);
    match folders::lock_dates(conn, owner, id).await? {
        None => {
            tracing::warn!(folder.id = %id, purchase.id = %event.purchase_id, "a paid extension for a folder that no longer exists");
            refuse(conn, &event, "The folder no longer exists.").await
        }
        Some(dates) if dates.storage_expires_at >= until => {
            tracing::warn!(folder.id = %id, purchase.id = %event.purchase_id, "a paid extension the folder had already reached");
            refuse(conn, &event, ALREADY_EXTENDED_MESSAGE).await
        }
        Some(dates) => match move_locked(conn, owner, id, dates, until).await {
            Ok(_) => {
                tracing::info!(folder.id = %id, purchase.id = %event.purchase_id, "storage date extended");
                Ok(())
            }
            Err(EvidenceError::WrongState(message)) => {
                tracing::warn!(folder.id = %id, purchase.id = %event.purchase_id, message, "a paid extension for a purged folder");
                refuse(conn, &event, message).await
            }
            Err(err) => Err(anyhow::anyhow!("{err}")),
        },
    }
});

async fn refuse(
    conn: &mut PgConnection,
    event: &StorageExtensionPaid,
    reason: &str,
) -> anyhow::Result<()> {
    outbox::enqueue(
        conn,
        &StorageExtensionRefused {
            purchase_id: event.purchase_id.clone(),
            folder_id: event.folder_id.clone(),
            owner_id: event.owner_id.clone(),
            reason: reason.to_owned(),
        },
    )
    .await?;
    Ok(())
}
