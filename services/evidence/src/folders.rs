//! Folders: created with the default storage period (idempotently, by the device's client id),
//! rental folders with their kind and moment, listed with their usage, renamed, deleted.

use chrono::{DateTime, Duration, Utc};
use evidentia_common::{errors::FieldError, outbox, time::timestamp};
use evidentia_proto::events::v1::{FolderCreated, StorageDateChanged};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    config::StoragePolicy,
    domain::{Moment, Name, PICKUP_MESSAGE, Rental, RentalKind},
    error::EvidenceError,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Folder {
    pub id: Uuid,
    pub owner_id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub storage_expires_at: DateTime<Utc>,
    pub file_count: i64,
    pub used_bytes: i64,
    pub client_id: Option<Uuid>,
    pub rental_kind: Option<String>,
    pub vehicle_type: Option<String>,
    pub moment: Option<String>,
    pub pickup_folder_id: Option<Uuid>,
    pub organization_id: Option<Uuid>,
    pub template_id: Option<Uuid>,
}

impl Folder {
    pub fn rental_kind(&self) -> Option<RentalKind> {
        self.rental_kind.as_deref().and_then(RentalKind::parse)
    }
}

const SELECT: &str = "SELECT f.id, f.owner_id, f.name, f.created_at, f.storage_expires_at, f.client_id, \
     f.organization_id, f.template_id, \
     r.kind AS rental_kind, r.vehicle_type, r.moment, r.pickup_folder_id, \
     COUNT(i.id) FILTER (WHERE i.status = 'verified' OR i.previous_object_key IS NOT NULL) AS file_count, \
     COALESCE(SUM(CASE WHEN i.purged_at IS NOT NULL THEN 0 \
                       WHEN i.status = 'verified' THEN i.file_size \
                       WHEN i.previous_object_key IS NOT NULL THEN i.previous_file_size END), 0)::bigint AS used_bytes \
     FROM folders f LEFT JOIN rentals r ON r.folder_id = f.id LEFT JOIN items i ON i.folder_id = f.id";
const GROUP: &str = "GROUP BY f.id, r.folder_id";

/// A folder as the device asks for it.
#[derive(Debug, Clone)]
pub struct NewFolder {
    pub name: Name,
    pub client_id: Option<Uuid>,
    pub rental: Option<Rental>,
    pub organization: Option<OrganizationOrigin>,
}

/// An organization folder's organization and the template it is made from.
#[derive(Debug, Clone, Copy)]
pub struct OrganizationOrigin {
    pub organization_id: Uuid,
    pub template_id: Uuid,
}

/// A return's pick-up folder must be the same owner's pick-up of the same kind; anything else
/// (another user's, missing, a return, another kind) is the same field error.
async fn check_pickup(
    conn: &mut PgConnection,
    owner: Uuid,
    rental: &Rental,
) -> Result<(), EvidenceError> {
    let Some(pickup) = rental.pickup_folder_id else {
        return Ok(());
    };
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT r.kind, r.moment FROM rentals r JOIN folders f ON f.id = r.folder_id \
         WHERE f.owner_id = $1 AND f.id = $2",
    )
    .bind(owner)
    .bind(pickup)
    .fetch_optional(conn)
    .await?;
    match found {
        Some((kind, moment))
            if kind == rental.kind.as_str() && moment == Moment::Pickup.as_str() =>
        {
            Ok(())
        }
        _ => Err(EvidenceError::Invalid(vec![FieldError::new(
            "rental.pickup_folder_id",
            PICKUP_MESSAGE,
        )])),
    }
}

/// Creates the owner's folder. With a client id already used by the owner, answers the folder
/// created then (whatever the rest of the request says): a retry from an offline device.
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn create(
    conn: &mut PgConnection,
    policy: &StoragePolicy,
    owner: Uuid,
    new: &NewFolder,
) -> Result<Folder, EvidenceError> {
    if let Some(existing) = by_client_id(conn, owner, new.client_id).await? {
        return Ok(existing);
    }
    if let Some(rental) = &new.rental {
        check_pickup(conn, owner, rental).await?;
    }
    let id = Uuid::now_v7();
    let expires = Utc::now() + Duration::days(policy.default_period_days);
    let inserted = sqlx::query(
        "INSERT INTO folders (id, owner_id, name, storage_expires_at, client_id, organization_id, template_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT ON CONSTRAINT folders_owner_client_id DO NOTHING",
    )
    .bind(id)
    .bind(owner)
    .bind(new.name.as_str())
    .bind(expires)
    .bind(new.client_id)
    .bind(new.organization.map(|o| o.organization_id))
    .bind(new.organization.map(|o| o.template_id))
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if inserted == 0 {
        // A concurrent create with the same client id won.
        return by_client_id(conn, owner, new.client_id)
            .await?
            .ok_or(EvidenceError::NotFound);
    }
    if let Some(rental) = &new.rental {
        sqlx::query(
            "INSERT INTO rentals (folder_id, kind, vehicle_type, moment, pickup_folder_id) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(rental.kind.as_str())
        .bind(rental.vehicle_type.as_deref())
        .bind(rental.moment.as_str())
        .bind(rental.pickup_folder_id)
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query(
        "INSERT INTO storage_usage (user_id, folder_count) VALUES ($1, 1) \
         ON CONFLICT (user_id) DO UPDATE SET folder_count = storage_usage.folder_count + 1, updated_at = now()",
    )
    .bind(owner)
    .execute(&mut *conn)
    .await?;
    outbox::enqueue(
        conn,
        &FolderCreated {
            folder_id: id.to_string(),
            owner_id: owner.to_string(),
            storage_expires_at: Some(timestamp(expires)),
        },
    )
    .await?;
    get(conn, owner, id).await
}

async fn by_client_id(
    conn: &mut PgConnection,
    owner: Uuid,
    client_id: Option<Uuid>,
) -> Result<Option<Folder>, EvidenceError> {
    let Some(client_id) = client_id else {
        return Ok(None);
    };
    let sql = format!("{SELECT} WHERE f.owner_id = $1 AND f.client_id = $2 {GROUP}");
    Ok(sqlx::query_as(&sql)
        .bind(owner)
        .bind(client_id)
        .fetch_optional(conn)
        .await?)
}

/// The owner's own folders, newest first (an organization's folders are listed with the
/// organization's, not in its owner's files); with `pickup`, only the returns of that pick-up
/// folder (which must be the owner's).
pub async fn list(
    conn: &mut PgConnection,
    owner: Uuid,
    pickup: Option<Uuid>,
) -> Result<Vec<Folder>, EvidenceError> {
    if let Some(pickup) = pickup {
        get(conn, owner, pickup).await?;
    }
    let sql = format!(
        "{SELECT} WHERE f.owner_id = $1 AND f.organization_id IS NULL \
         AND ($2::uuid IS NULL OR r.pickup_folder_id = $2) {GROUP} ORDER BY f.created_at DESC"
    );
    Ok(sqlx::query_as(&sql)
        .bind(owner)
        .bind(pickup)
        .fetch_all(conn)
        .await?)
}

/// An organization's folders (owned by its owner), newest first.
pub async fn of_organization(
    conn: &mut PgConnection,
    owner: Uuid,
    organization: Uuid,
) -> Result<Vec<Folder>, EvidenceError> {
    let sql = format!(
        "{SELECT} WHERE f.owner_id = $1 AND f.organization_id = $2 {GROUP} ORDER BY f.created_at DESC"
    );
    Ok(sqlx::query_as(&sql)
        .bind(owner)
        .bind(organization)
        .fetch_all(conn)
        .await?)
}

/// The owner's folder; another user's is `NotFound`.
pub async fn get(conn: &mut PgConnection, owner: Uuid, id: Uuid) -> Result<Folder, EvidenceError> {
    let sql = format!("{SELECT} WHERE f.owner_id = $1 AND f.id = $2 {GROUP}");
    sqlx::query_as(&sql)
        .bind(owner)
        .bind(id)
        .fetch_optional(conn)
        .await?
        .ok_or(EvidenceError::NotFound)
}

pub const PURGED_MESSAGE: &str =
    "The files of this folder were deleted after its storage date; it cannot be extended.";

/// Moves the owner's folder's storage date to `until` (later than the current date and than
/// now) and publishes `StorageDateChanged`. An expired folder whose files are still kept becomes
/// usable again, and its next expiry is announced again.
#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %id))]
pub async fn extend(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
    until: DateTime<Utc>,
) -> Result<Folder, EvidenceError> {
    let found: Option<(DateTime<Utc>, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT storage_expires_at, purged_at FROM folders WHERE owner_id = $1 AND id = $2 FOR UPDATE",
    )
    .bind(owner)
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let (previous, purged) = found.ok_or(EvidenceError::NotFound)?;
    if purged.is_some() {
        return Err(EvidenceError::WrongState(PURGED_MESSAGE));
    }
    if until <= previous || until <= Utc::now() {
        return Err(EvidenceError::Invalid(vec![FieldError::new(
            "storage_expires_at",
            "The new storage date must be later than the current one.",
        )]));
    }
    // The stored date (microseconds) is the one announced.
    let until: DateTime<Utc> = sqlx::query_scalar(
        "UPDATE folders SET storage_expires_at = $2, expired_at = NULL, updated_at = now() WHERE id = $1 \
         RETURNING storage_expires_at",
    )
    .bind(id)
    .bind(until)
    .fetch_one(&mut *conn)
    .await?;
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
    get(conn, owner, id).await
}

pub async fn rename(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
    name: &Name,
) -> Result<Folder, EvidenceError> {
    let updated = sqlx::query(
        "UPDATE folders SET name = $3, updated_at = now() WHERE owner_id = $1 AND id = $2",
    )
    .bind(owner)
    .bind(id)
    .bind(name.as_str())
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(EvidenceError::NotFound);
    }
    get(conn, owner, id).await
}

/// Deletes the folder and its items; returns the objects (files, thumbnails, files a retake
/// replaces) and unfinished uploads to remove from S3 once the transaction has committed.
pub async fn delete(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Vec<(String, Option<String>)>, EvidenceError> {
    let folder = get(conn, owner, id).await?;
    crate::holds::refuse_folder(conn, id).await?;
    let objects = crate::items::list(conn, owner, id)
        .await?
        .iter()
        .flat_map(crate::items::Item::objects)
        .collect();
    sqlx::query("DELETE FROM folders WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE storage_usage SET folder_count = GREATEST(folder_count - 1, 0), \
         file_count = GREATEST(file_count - $2, 0), used_bytes = GREATEST(used_bytes - $3, 0), updated_at = now() \
         WHERE user_id = $1",
    )
    .bind(owner)
    .bind(folder.file_count)
    .bind(folder.used_bytes)
    .execute(&mut *conn)
    .await?;
    Ok(objects)
}

/// A paid storage extension (payments' StorageExtensionPaid) moves the folder's date to the paid
/// one, once: the date was computed at payment, so a redelivered event finds the folder already
/// that late and changes nothing. For a folder deleted or purged since, StorageExtensionRefused
/// goes back (in the same transaction), and payments refunds the purchase.
pub struct ExtendOnPayment;

#[async_trait::async_trait]
impl evidentia_common::consumer::Handler<evidentia_proto::events::v1::StorageExtensionPaid>
    for ExtendOnPayment
{
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: evidentia_proto::events::v1::StorageExtensionPaid,
        _meta: &evidentia_common::consumer::EventMeta,
    ) -> anyhow::Result<()> {
        let owner = Uuid::parse_str(&event.owner_id)?;
        let id = Uuid::parse_str(&event.folder_id)?;
        let until = event
            .storage_expires_at
            .as_ref()
            .and_then(evidentia_common::time::datetime)
            .ok_or_else(|| anyhow::anyhow!("StorageExtensionPaid without a date"))?;
        let current: Option<DateTime<Utc>> = sqlx::query_scalar(
            "SELECT storage_expires_at FROM folders WHERE owner_id = $1 AND id = $2",
        )
        .bind(owner)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
        match current {
            None => {
                tracing::warn!(folder.id = %id, purchase.id = %event.purchase_id, "a paid extension for a folder that no longer exists");
                refuse(conn, &event, "The folder no longer exists.").await
            }
            Some(current) if current >= until => {
                tracing::info!(folder.id = %id, purchase.id = %event.purchase_id, "storage date already extended");
                Ok(())
            }
            Some(_) => match extend(conn, owner, id, until).await {
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
    }
}

async fn refuse(
    conn: &mut PgConnection,
    event: &evidentia_proto::events::v1::StorageExtensionPaid,
    reason: &str,
) -> anyhow::Result<()> {
    outbox::enqueue(
        conn,
        &evidentia_proto::events::v1::StorageExtensionRefused {
            purchase_id: event.purchase_id.clone(),
            folder_id: event.folder_id.clone(),
            owner_id: event.owner_id.clone(),
            reason: reason.to_owned(),
        },
    )
    .await?;
    Ok(())
}

/// A deleted account's grace period ended (accounts' AccountPurged): every folder, item and file
/// of the user goes, with their storage usage. The objects are removed as the rows go; a
/// redelivery finds nothing left. Nothing is paused at `AccountDeleted`: the files are served
/// only to their signed-in owner, whose sessions ended with the deletion.
pub struct PurgeOnAccountPurged {
    pub store: std::sync::Arc<crate::storage::MediaStore>,
}

#[async_trait::async_trait]
impl evidentia_common::consumer::Handler<evidentia_proto::events::v1::AccountPurged>
    for PurgeOnAccountPurged
{
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: evidentia_proto::events::v1::AccountPurged,
        _meta: &evidentia_common::consumer::EventMeta,
    ) -> anyhow::Result<()> {
        let owner = Uuid::parse_str(&event.user_id)?;
        let folders: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM folders WHERE owner_id = $1")
            .bind(owner)
            .fetch_all(&mut *conn)
            .await?;
        let mut objects = Vec::new();
        for id in &folders {
            objects.extend(delete(conn, owner, *id).await?);
        }
        sqlx::query("DELETE FROM storage_usage WHERE user_id = $1")
            .bind(owner)
            .execute(&mut *conn)
            .await?;
        self.store.remove_all(objects).await;
        tracing::info!(user.id = %owner, folders = folders.len(), "purged the user's evidence");
        Ok(())
    }
}
