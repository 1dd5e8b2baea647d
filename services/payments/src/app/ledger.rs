//! The wallet ledger: every change of a balance is one entry, written in the same transaction as
//! the balance it leaves, once per reference, never below zero.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::EntryKind, error::PaymentsError, store::wallets};

/// Adds one ledger entry and moves the balance by `amount` (negative for a debit), once per
/// `reference`: a second call with the same reference changes nothing and answers false. A debit
/// past zero is `InsufficientBalance`. Call inside a transaction: the wallet row stays locked.
pub async fn post(
    conn: &mut PgConnection,
    user_id: Uuid,
    kind: EntryKind,
    amount: i64,
    reference: &str,
    description: &str,
) -> Result<bool, PaymentsError> {
    let balance = lock(conn, user_id).await?;
    let after = balance
        .checked_add(amount)
        .ok_or_else(|| anyhow::anyhow!("a balance of {balance} cannot move by {amount}"))?;
    if after < 0 {
        return Err(PaymentsError::InsufficientBalance);
    }
    let inserted =
        wallets::insert_entry(conn, user_id, kind, amount, after, reference, description).await?;
    if inserted {
        wallets::set_balance(conn, user_id, after).await?;
    }
    Ok(inserted)
}

/// Locks the user's wallet row (made when missing) for the rest of the transaction; its balance.
pub async fn lock(conn: &mut PgConnection, user_id: Uuid) -> Result<i64, PaymentsError> {
    wallets::ensure(conn, user_id).await?;
    Ok(wallets::lock_balance(conn, user_id).await?)
}
