//! Folders: created with the default storage period (idempotently, by the device's client id),
//! rental folders with their kind and moment, listed with their usage, renamed, deleted.

use chrono::{Duration, Utc};
use evidentia_common::{errors::FieldError, grpc::Caller, outbox, time::timestamp};
use evidentia_proto::events::v1::FolderCreated;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{access, holds, items},
    config::StoragePolicy,
    domain::{Folder, Item, Moment, Name, NewFolder, PICKUP_MESSAGE, Rental},
    error::EvidenceError,
    memberships::Memberships,
    storage::MediaStore,
    store::{folders, rentals, usage},
};

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
    match rentals::of_owner(conn, owner, pickup).await? {
        Some(found)
            if found.kind == rental.kind.as_str() && found.moment == Moment::Pickup.as_str() =>
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
    pool: &PgPool,
    policy: &StoragePolicy,
    owner: Uuid,
    new: &NewFolder,
) -> Result<Folder, EvidenceError> {
    let mut tx = pool.begin().await?;
    let folder = create_in(&mut tx, policy, owner, new).await?;
    tx.commit().await?;
    Ok(folder)
}

/// `create` inside the caller's transaction (an organization folder adds its steps to it).
pub(crate) async fn create_in(
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
    let inserted = folders::insert(
        conn,
        &folders::NewFolderRow {
            id,
            owner_id: owner,
            name: new.name.as_str(),
            storage_expires_at: expires,
            client_id: new.client_id,
            organization_id: new.organization.map(|o| o.organization_id),
            template_id: new.organization.map(|o| o.template_id),
        },
    )
    .await?;
    if !inserted {
        // A concurrent create with the same client id won.
        return by_client_id(conn, owner, new.client_id)
            .await?
            .ok_or(EvidenceError::NotFound);
    }
    if let Some(rental) = &new.rental {
        rentals::insert(
            conn,
            id,
            rental.kind.as_str(),
            rental.vehicle_type.as_deref(),
            rental.moment.as_str(),
            rental.pickup_folder_id,
        )
        .await?;
    }
    usage::add_folder(conn, owner).await?;
    outbox::enqueue(
        conn,
        &FolderCreated {
            folder_id: id.to_string(),
            owner_id: owner.to_string(),
            storage_expires_at: Some(timestamp(expires)),
        },
    )
    .await?;
    owned(conn, owner, id).await
}

async fn by_client_id(
    conn: &mut PgConnection,
    owner: Uuid,
    client_id: Option<Uuid>,
) -> Result<Option<Folder>, EvidenceError> {
    let Some(client_id) = client_id else {
        return Ok(None);
    };
    Ok(folders::by_client_id(conn, owner, client_id).await?)
}

/// The owner's own folders, newest first (an organization's folders are listed with the
/// organization's, not in its owner's files); with `pickup`, only the returns of that pick-up
/// folder (which must be the owner's).
pub async fn list(
    pool: &PgPool,
    owner: Uuid,
    pickup: Option<Uuid>,
) -> Result<Vec<Folder>, EvidenceError> {
    let mut conn = pool.acquire().await?;
    if let Some(pickup) = pickup {
        owned(&mut conn, owner, pickup).await?;
    }
    Ok(folders::own(&mut conn, owner, pickup).await?)
}

/// The owner's folder; another user's is `NotFound`.
pub async fn get(pool: &PgPool, owner: Uuid, id: Uuid) -> Result<Folder, EvidenceError> {
    owned(&mut *pool.acquire().await?, owner, id).await
}

/// The folder as `user` reaches it, and whether they own it: their own in one read (the case
/// nearly every call is), else through its organization (`access::folder`).
pub async fn reached(
    pool: &PgPool,
    memberships: &dyn Memberships,
    caller: &Caller,
    user: Uuid,
    id: Uuid,
) -> Result<(Folder, bool), EvidenceError> {
    if let Some(own) = folders::get(&mut *pool.acquire().await?, user, id).await? {
        return Ok((own, true));
    }
    let access = access::folder(pool, memberships, caller, id).await?;
    Ok((
        get(pool, access.owner, id).await?,
        access.membership.is_none(),
    ))
}

/// `get` on the caller's connection.
pub(crate) async fn owned(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Folder, EvidenceError> {
    folders::get(conn, owner, id)
        .await?
        .ok_or(EvidenceError::NotFound)
}

pub async fn rename(
    pool: &PgPool,
    owner: Uuid,
    id: Uuid,
    name: &Name,
) -> Result<Folder, EvidenceError> {
    let mut conn = pool.acquire().await?;
    if !folders::rename(&mut conn, owner, id, name.as_str()).await? {
        return Err(EvidenceError::NotFound);
    }
    owned(&mut conn, owner, id).await
}

/// Deletes the folder and its items, then removes their objects (files, thumbnails, files a
/// retake replaces) and unfinished uploads from S3 once the transaction has committed.
#[tracing::instrument(skip_all, fields(user.id = %owner, folder.id = %id))]
pub async fn delete(
    pool: &PgPool,
    store: &MediaStore,
    owner: Uuid,
    id: Uuid,
) -> Result<(), EvidenceError> {
    let mut tx = pool.begin().await?;
    let objects = remove(&mut tx, owner, id).await?;
    tx.commit().await?;
    store.remove_all(objects).await;
    Ok(())
}

/// Deletes the folder and its items in the caller's transaction; returns the objects to remove
/// from S3 once it has committed.
pub(crate) async fn remove(
    conn: &mut PgConnection,
    owner: Uuid,
    id: Uuid,
) -> Result<Vec<(String, Option<String>)>, EvidenceError> {
    let folder = owned(conn, owner, id).await?;
    // Its items locked first, so no hold is placed between the check and the delete.
    crate::store::items::lock_in_folder(conn, id).await?;
    holds::refuse_folder(conn, id).await?;
    let objects = items::in_folder(conn, owner, id)
        .await?
        .iter()
        .flat_map(Item::objects)
        .collect();
    folders::delete(conn, id).await?;
    usage::remove_folder(conn, owner, folder.file_count, folder.used_bytes).await?;
    Ok(objects)
}
