//! The wallet ledger: every change of a balance is one entry, written in the same transaction as
//! the balance it leaves, once per reference, never below zero. A purchase's debit keeps the same
//! rules in a statement of its own (`wallets::debit_answering`), which also stores its answer.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{domain::EntryKind, error::PaymentsError, store::wallets};

/// Adds one ledger entry and moves the balance by `amount` (negative for a debit), once per
/// `reference`; answers the balance it left, or none when the reference was already posted (and
/// nothing changed). A debit past zero is `InsufficientBalance`. Call inside a transaction: the
/// wallet row stays locked.
pub async fn post(
    conn: &mut PgConnection,
    user_id: Uuid,
    kind: EntryKind,
    amount: i64,
    reference: &str,
    description: &str,
) -> Result<Option<i64>, PaymentsError> {
    let balance = lock(conn, user_id).await?;
    let after = balance
        .checked_add(amount)
        .ok_or_else(|| anyhow::anyhow!("a balance of {balance} cannot move by {amount}"))?;
    if after < 0 {
        return Err(PaymentsError::InsufficientBalance);
    }
    Ok(wallets::post_entry(conn, user_id, kind, amount, after, reference, description).await?)
}

/// Locks the user's wallet row (made when missing) for the rest of the transaction; its balance.
/// The row is looked for first: making it ("insert unless there") would wait for whichever
/// transaction last wrote the row, on every call, although it is made only once.
pub async fn lock(conn: &mut PgConnection, user_id: Uuid) -> Result<i64, PaymentsError> {
    if let Some(balance) = wallets::lock(conn, user_id).await? {
        return Ok(balance);
    }
    wallets::ensure(conn, user_id).await?;
    wallets::lock(conn, user_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the wallet row just made is missing").into())
}
