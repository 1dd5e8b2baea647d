//! `wallets` and `wallet_entries`: the CreditCard Wallet's stored account and its ledger.

use sqlx::PgConnection;
use uuid::Uuid;

use super::idempotency_keys::NewKey;
use crate::domain::EntryKind;

/// Makes sure the user's wallet row exists (it holds the balance even without a wallet card).
#[tracing::instrument(skip_all)]
pub async fn ensure(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO wallets (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What a purchase from the wallet reads before it pays, with the user's Stripe customer: no row
/// lock is taken. The wallet is none without a wallet row.
#[derive(Debug, Clone)]
pub struct Funds {
    pub customer: Option<String>,
    pub wallet: Option<AccountRow>,
}

/// The user's wallet-purchase lock until the end of the transaction (an advisory lock: credits
/// and top-ups, which lock the wallet row only to write it, do not wait for it). Shared, purchases
/// the balance covers run side by side; exclusive, a purchase whose card charge for a shortfall
/// counts on the balance it read pays alone, and no other purchase debits that balance.
#[tracing::instrument(skip_all, fields(exclusive))]
pub async fn lock_purchases(
    conn: &mut PgConnection,
    user_id: Uuid,
    exclusive: bool,
) -> sqlx::Result<()> {
    let key = format!("wallet-purchase:{user_id}");
    if exclusive {
        sqlx::query!("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)
            .fetch_one(conn)
            .await?;
    } else {
        sqlx::query!(
            "SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))",
            key
        )
        .fetch_one(conn)
        .await?;
    }
    Ok(())
}

/// The user's wallet-charge lock until the end of the transaction (an advisory lock, exclusive):
/// the purchases that may charge the wallet card for a shortfall take it, so they are planned one
/// after the other and one charge covers a shortfall. Purchases the balance covers do not take it.
#[tracing::instrument(skip_all)]
pub async fn lock_charges(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        format!("wallet-charge:{user_id}")
    )
    .fetch_one(conn)
    .await?;
    Ok(())
}

/// The user's funds; none without a payments customer.
#[tracing::instrument(skip_all)]
pub async fn funds(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Funds>> {
    let row = sqlx::query!(
        r#"SELECT c.stripe_customer_id AS customer, w.balance_cents AS "balance?",
                  w.auto_topping_up_amount_cents AS "auto_amount?", w.payment_method AS "payment_method?",
                  p.brand AS "brand?", p.last4 AS "last4?", w.top_up_error AS "top_up_error?",
                  w.top_up_error_last4 AS "top_up_error_last4?"
           FROM customers c LEFT JOIN wallets w ON w.user_id = c.user_id
                LEFT JOIN payment_methods p ON p.id = w.payment_method
           WHERE c.user_id = $1"#,
        user_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| Funds {
        customer: row.customer,
        wallet: row.balance.map(|balance| AccountRow {
            balance,
            auto_amount: row.auto_amount.unwrap_or(0),
            payment_method: row.payment_method,
            brand: row.brand,
            last4: row.last4,
            top_up_error: row.top_up_error,
            top_up_error_last4: row.top_up_error_last4,
        }),
    }))
}

/// One ledger entry leaving the balance at `balance_after`, and the balance set to it, in one
/// statement; none when its reference was recorded before (nothing is written then). The caller
/// holds the wallet row's lock and read the balance the entry moves under it.
#[allow(clippy::too_many_arguments)]
#[tracing::instrument(skip_all)]
pub async fn post_entry(
    conn: &mut PgConnection,
    user_id: Uuid,
    kind: EntryKind,
    amount: i64,
    balance_after: i64,
    reference: &str,
    description: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "WITH entry AS (
             INSERT INTO wallet_entries (id, user_id, kind, amount_cents, balance_after_cents, reference, description)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (reference) DO NOTHING
             RETURNING balance_after_cents)
         UPDATE wallets w SET balance_cents = entry.balance_after_cents, updated_at = now()
         FROM entry WHERE w.user_id = $2
         RETURNING w.balance_cents AS \"balance!\"",
        Uuid::now_v7(),
        user_id,
        kind.as_str(),
        amount,
        balance_after,
        reference,
        description
    )
    .fetch_optional(conn)
    .await
}

/// The stored account's columns, with the wallet card's brand and last4.
#[derive(Debug, Clone)]
pub struct AccountRow {
    pub balance: i64,
    pub auto_amount: i64,
    pub payment_method: Option<String>,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub top_up_error: Option<String>,
    pub top_up_error_last4: Option<String>,
}

#[tracing::instrument(skip_all)]
pub async fn account(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<AccountRow>> {
    sqlx::query_as!(
        AccountRow,
        r#"SELECT w.balance_cents AS balance, w.auto_topping_up_amount_cents AS auto_amount,
                  w.payment_method, p.brand AS "brand?", p.last4 AS "last4?", w.top_up_error,
                  w.top_up_error_last4
           FROM wallets w LEFT JOIN payment_methods p ON p.id = w.payment_method
           WHERE w.user_id = $1"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Locks the user's wallet row for the rest of the transaction; its balance, none without a row.
#[tracing::instrument(skip_all)]
pub async fn lock(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "SELECT balance_cents FROM wallets WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// A purchase's debit of the wallet.
#[derive(Debug)]
pub struct Debit<'a> {
    pub user_id: Uuid,
    pub amount: i64,
    pub reference: &'a str,
    pub description: &'a str,
}

/// The debit, its ledger entry and the request's stored answer in one statement, which locks the
/// wallet row until the commit: purchases from one wallet wait for each other only from this
/// statement to their commits. The answer's balance is the one this debit leaves, known only here,
/// so it is stored in the key's own column (see `idempotency::Answer`). Answers that balance; none,
/// and nothing written, when the balance does not cover the amount.
#[tracing::instrument(skip_all)]
pub async fn debit_answering(
    conn: &mut PgConnection,
    debit: &Debit<'_>,
    answer: &NewKey<'_>,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"WITH debit AS (
               UPDATE wallets SET balance_cents = balance_cents - $3, updated_at = now()
               WHERE user_id = $2 AND balance_cents >= $3
               RETURNING balance_cents),
           entry AS (
               INSERT INTO wallet_entries (id, user_id, kind, amount_cents, balance_after_cents, reference, description)
               SELECT $1, $2, $4, -$3, balance_cents, $5, $6 FROM debit),
           answer AS (
               INSERT INTO idempotency_keys (user_id, key, operation, request_hash, response, balance_after_cents)
               SELECT $2, $7, $8, $9, $10, balance_cents FROM debit)
           SELECT balance_cents AS "balance!" FROM debit"#,
        Uuid::now_v7(),
        debit.user_id,
        debit.amount,
        EntryKind::Purchase.as_str(),
        debit.reference,
        debit.description,
        answer.key,
        answer.operation,
        answer.request_hash,
        &answer.response
    )
    .fetch_optional(conn)
    .await
}

/// Sets the wallet card and amount; a new card clears a previous top-up error.
#[tracing::instrument(skip_all)]
pub async fn set_card(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method: &str,
    amount: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallets SET payment_method = $2, auto_topping_up_amount_cents = $3,
                top_up_error = CASE WHEN payment_method IS DISTINCT FROM $2 THEN NULL ELSE top_up_error END,
                top_up_error_last4 = CASE WHEN payment_method IS DISTINCT FROM $2 THEN NULL ELSE top_up_error_last4 END,
                closed_at = NULL, updated_at = now()
         WHERE user_id = $1",
        user_id,
        payment_method,
        amount
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Opens the wallet with the card and amount of its creation, unless it already has a card.
#[tracing::instrument(skip_all)]
pub async fn open(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method: &str,
    amount: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallets SET payment_method = COALESCE(payment_method, $2),
                auto_topping_up_amount_cents = CASE WHEN payment_method IS NULL THEN $3 ELSE auto_topping_up_amount_cents END,
                top_up_error = NULL, top_up_error_last4 = NULL, closed_at = NULL, updated_at = now()
         WHERE user_id = $1",
        user_id,
        payment_method,
        amount
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn close(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallets SET payment_method = NULL, auto_topping_up_amount_cents = 0,
                top_up_error = NULL, top_up_error_last4 = NULL, closed_at = now(), updated_at = now()
         WHERE user_id = $1",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all)]
pub async fn set_top_up_error(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method: &str,
    message: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallets SET top_up_error = $2,
                top_up_error_last4 = (SELECT last4 FROM payment_methods WHERE id = $3), updated_at = now()
         WHERE user_id = $1",
        user_id,
        message,
        payment_method
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An auto top-up one caller claimed: the card and amount to charge, and the customer.
#[derive(Debug, Clone)]
pub struct TopUpClaim {
    pub payment_method: String,
    pub amount: i64,
    pub customer: String,
}

/// Claims the wallet's auto top-up when it is due (a wallet card, no top-up error, an amount, a
/// balance under `threshold`) and nobody else holds the claim; a claim older than two minutes was
/// left by a caller that stopped and is taken over. The claim replaces a row lock held across the
/// Stripe charge: concurrent purchases top up once, and nothing else waits for Stripe.
#[tracing::instrument(skip_all)]
pub async fn claim_top_up(
    conn: &mut PgConnection,
    user_id: Uuid,
    threshold: i64,
) -> sqlx::Result<Option<TopUpClaim>> {
    sqlx::query_as!(
        TopUpClaim,
        r#"UPDATE wallets w SET top_up_claimed_at = now()
           FROM customers c
           WHERE w.user_id = $1 AND c.user_id = w.user_id AND c.stripe_customer_id IS NOT NULL
             AND w.payment_method IS NOT NULL AND w.top_up_error IS NULL
             AND w.auto_topping_up_amount_cents > 0 AND w.balance_cents < $2
             AND (w.top_up_claimed_at IS NULL OR w.top_up_claimed_at < now() - interval '2 minutes')
           RETURNING w.payment_method AS "payment_method!", w.auto_topping_up_amount_cents AS amount,
                     c.stripe_customer_id AS "customer!""#,
        user_id,
        threshold
    )
    .fetch_optional(conn)
    .await
}

#[tracing::instrument(skip_all)]
pub async fn release_top_up(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE wallets SET top_up_claimed_at = NULL WHERE user_id = $1",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}
