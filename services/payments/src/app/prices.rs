//! Prices of what can be bought: a folder's storage for some months, copies for some recipients.

use chrono::{DateTime, Months, Utc};

use crate::{
    error::PaymentsError,
    pricing::{Breakdown, Pricing, StorageSize},
};

/// One of the offered storage periods, in months.
pub fn check_months(pricing: &Pricing, months: i32) -> Result<i32, PaymentsError> {
    if pricing.storage_months_options.contains(&months) {
        Ok(months)
    } else {
        Err(PaymentsError::invalid(
            "months",
            "Choose one of the offered storage periods.",
        ))
    }
}

/// The new storage date: `months` after the current date, or after now when it has passed.
pub fn extended(current: DateTime<Utc>, now: DateTime<Utc>, months: i32) -> DateTime<Utc> {
    let base = current.max(now);
    base.checked_add_months(Months::new(months.unsigned_abs()))
        .unwrap_or(base)
}

/// A storage price, with the folder's current and new dates when a folder was named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoragePrice {
    pub breakdown: Breakdown,
    pub current: Option<DateTime<Utc>>,
    pub new_date: Option<DateTime<Utc>>,
}

/// What is priced: a folder (its measured size and storage date) or a size alone.
#[derive(Debug, Clone, Copy)]
pub enum Sized {
    Folder {
        used_bytes: i64,
        storage_expires_at: Option<DateTime<Utc>>,
    },
    Bytes(i64),
}

pub fn storage(
    pricing: &Pricing,
    what: Sized,
    months: i32,
    now: DateTime<Utc>,
) -> Result<StoragePrice, PaymentsError> {
    let months = check_months(pricing, months)?;
    let (size, current) = match what {
        Sized::Folder {
            used_bytes,
            storage_expires_at,
        } => (StorageSize::measured(used_bytes), storage_expires_at),
        Sized::Bytes(bytes) => (StorageSize::parse("size_bytes", bytes)?, None),
    };
    let breakdown = pricing.storage(size, months)?;
    Ok(StoragePrice {
        breakdown,
        current,
        new_date: current.map(|c| extended(c, now, months)),
    })
}

/// Copies of one type for some recipients.
pub fn sharing(
    pricing: &Pricing,
    copy_type: &str,
    recipients: i32,
) -> Result<Breakdown, PaymentsError> {
    let authenticated = match copy_type {
        "authenticated" => true,
        "unauthenticated" => false,
        _ => {
            return Err(PaymentsError::invalid(
                "copy_type",
                "The copy type must be authenticated or unauthenticated.",
            ));
        }
    };
    if !(1..=100).contains(&recipients) {
        return Err(PaymentsError::invalid(
            "recipients",
            "Choose 1 to 100 recipients.",
        ));
    }
    Ok(pricing.sharing(authenticated, recipients)?)
}
