//! Public verification: what a transaction number, or the SHA-256 of a file someone holds,
//! stands for. The recipient's address is masked; the facts are those recorded when the share
//! was made.

use chrono::{DateTime, Utc};
use evidentia_common::ratelimit::{self, Verdict};
use redis::aio::ConnectionManager;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::{CopyType, Recipient, TransactionNumber, parse_sha256},
    error::SharingError,
    outbound::SignedReceipt,
    store::{copies, deliveries, shares},
};

#[derive(Debug, Clone)]
pub enum Lookup {
    Number(String),
    Sha256(String),
}

#[derive(Debug, Clone)]
pub struct VerifiedItem {
    pub name: String,
    pub media_type: String,
    pub copy_sha256: Option<String>,
    pub original_sha256: String,
    pub captured_at: DateTime<Utc>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: String,
    pub address: String,
    pub received_at: Option<DateTime<Utc>>,
    pub receipt: Option<SignedReceipt>,
}

#[derive(Debug, Clone)]
pub struct Verification {
    pub transaction_number: String,
    pub copy_type: CopyType,
    pub generated_for: Option<String>,
    pub sent_to_masked: String,
    pub generated_on: DateTime<Utc>,
    pub revoked: bool,
    pub items: Vec<VerifiedItem>,
    pub matched_item_index: Option<i32>,
}

#[tracing::instrument(skip_all)]
pub async fn verify(
    pool: &PgPool,
    redis: &ConnectionManager,
    per_minute: u32,
    client_ip: &str,
    lookup: Lookup,
) -> Result<Verification, SharingError> {
    if !client_ip.is_empty()
        && let Verdict::Refused { retry_after_secs } = ratelimit::hit(
            redis,
            &format!("sharing:verify:client:{client_ip}"),
            per_minute,
            60,
        )
        .await?
    {
        return Err(SharingError::RateLimited {
            message: "Too many lookups. Try again in a minute.",
            retry_after_secs,
        });
    }
    let mut conn = pool.acquire().await?;
    let (delivery_id, matched_item) = match lookup {
        Lookup::Number(typed) => {
            let not_found =
                || SharingError::NotIssued("No copy was issued with this transaction number.");
            let number = TransactionNumber::parse(&typed).ok_or_else(not_found)?;
            let id = deliveries::by_transaction_number(&mut conn, number.as_str())
                .await?
                .ok_or_else(not_found)?;
            (id, None)
        }
        Lookup::Sha256(typed) => {
            let not_found = || SharingError::NotIssued("This file is not a copy we issued.");
            let sha = parse_sha256(&typed).ok_or_else(not_found)?;
            let (delivery, item) = copies::delivery_by_sha256(&mut conn, &sha)
                .await?
                .ok_or_else(not_found)?;
            (delivery, Some(item))
        }
    };
    let opened = deliveries::open(&mut conn, delivery_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let items = shares::items(&mut conn, opened.delivery.share_id).await?;
    let rows = copies::for_delivery(&mut conn, delivery_id).await?;
    let d = &opened.delivery;
    Ok(Verification {
        transaction_number: d.transaction_number.clone(),
        copy_type: CopyType::from_db(&opened.copy_type),
        generated_for: opened.generated_for.clone(),
        sent_to_masked: Recipient::masked(&d.channel, &d.address, &d.sent_to),
        generated_on: d.created_at,
        revoked: opened.share_state == "revoked",
        matched_item_index: matched_item
            .and_then(|id: Uuid| items.iter().position(|i| i.item_id == id))
            .and_then(|i| i32::try_from(i).ok()),
        items: items
            .iter()
            .map(|item| VerifiedItem {
                name: item.name.clone(),
                media_type: item.media_type.clone(),
                copy_sha256: rows
                    .iter()
                    .find(|c| c.item_id == item.item_id)
                    .and_then(|c| c.sha256.clone()),
                original_sha256: item.original_sha256.clone(),
                captured_at: item.captured_at,
                latitude: item.latitude,
                longitude: item.longitude,
                city: item.city.clone(),
                address: item.address.clone(),
                received_at: item.received_at,
                receipt: match (&item.receipt, &item.receipt_signature, &item.receipt_key_id) {
                    (Some(payload), Some(signature), Some(key_id)) => Some(SignedReceipt {
                        payload: payload.clone(),
                        signature: signature.clone(),
                        key_id: key_id.clone(),
                        // The page shows what was signed; timestamps are the packet's.
                        timestamp: None,
                    }),
                    _ => None,
                },
            })
            .collect(),
    })
}
