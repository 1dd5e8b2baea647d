//! The CreditCard Wallet: a ledger in cents whose balance is kept in the same transaction as each
//! entry and never goes below zero, the stored account (wallet card and auto top-up amount), and
//! the off-session charges that fill it (spec §1, §9).

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    domain::PaymentMethodId,
    error::PaymentsError,
    movements,
    pricing::Pricing,
    stripe::{OffSessionCharge, Stripe, StripeFailure},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    TopUp,
    AutoTopUp,
    Promo,
    Purchase,
    Refund,
    Authorisation,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TopUp => "top_up",
            Self::AutoTopUp => "auto_top_up",
            Self::Promo => "promo",
            Self::Purchase => "purchase",
            Self::Refund => "refund",
            Self::Authorisation => "authorisation",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoredAccount {
    pub active: bool,
    pub payment_method_id: Option<String>,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub auto_topping_up_amount: i64,
    pub balance: i64,
    pub top_up_error: Option<String>,
}

/// Makes sure the user's wallet row exists (it holds the balance even without a wallet card).
pub async fn ensure_row(conn: &mut PgConnection, user_id: Uuid) -> Result<(), PaymentsError> {
    sqlx::query("INSERT INTO wallets (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Locks the wallet row for the rest of the transaction and returns its balance.
pub async fn lock(conn: &mut PgConnection, user_id: Uuid) -> Result<i64, PaymentsError> {
    ensure_row(conn, user_id).await?;
    Ok(
        sqlx::query_scalar("SELECT balance_cents FROM wallets WHERE user_id = $1 FOR UPDATE")
            .bind(user_id)
            .fetch_one(conn)
            .await?,
    )
}

/// Adds one ledger entry and moves the balance by `amount` (negative for a debit), once per
/// `reference`: a second call with the same reference changes nothing and answers false. A debit
/// past zero is `InsufficientBalance`. Call inside a transaction.
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
    let inserted = sqlx::query(
        "INSERT INTO wallet_entries (id, user_id, kind, amount_cents, balance_after_cents, reference, description) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (reference) DO NOTHING",
    )
    .bind(Uuid::now_v7())
    .bind(user_id)
    .bind(kind.as_str())
    .bind(amount)
    .bind(after)
    .bind(reference)
    .bind(description)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1;
    if inserted {
        sqlx::query("UPDATE wallets SET balance_cents = $2, updated_at = now() WHERE user_id = $1")
            .bind(user_id)
            .bind(after)
            .execute(&mut *conn)
            .await?;
    }
    Ok(inserted)
}

pub async fn stored_account(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<StoredAccount, PaymentsError> {
    type Row = (
        i64,
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let row: Option<Row> = sqlx::query_as(
        "SELECT w.balance_cents, w.auto_topping_up_amount_cents, w.payment_method, \
                    p.brand, p.last4, w.top_up_error, w.top_up_error_last4 \
             FROM wallets w LEFT JOIN payment_methods p ON p.id = w.payment_method \
             WHERE w.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    let Some((balance, amount, pm, brand, last4, error, error_last4)) = row else {
        return Ok(StoredAccount::default());
    };
    Ok(StoredAccount {
        active: pm.is_some(),
        payment_method_id: pm,
        brand,
        // Spec §3: the stored account carries the failed card's last4 with the error.
        last4: if error.is_some() {
            error_last4.or(last4)
        } else {
            last4
        },
        auto_topping_up_amount: amount,
        balance,
        top_up_error: error,
    })
}

/// Spec §5 "Wallet amount" (in cents here): $10 to $100, with the spec's messages on `field`.
pub fn check_amount(pricing: &Pricing, field: &str, amount: i64) -> Result<(), PaymentsError> {
    if amount < pricing.top_up_min {
        return Err(PaymentsError::invalid(
            field,
            "The amount should be more then 10$",
        ));
    }
    if amount > pricing.top_up_max {
        return Err(PaymentsError::invalid(
            field,
            "The amount should be less then 100$",
        ));
    }
    Ok(())
}

/// Sets the wallet card and the auto top-up amount (create or edit). The card must be one of the
/// user's saved cards. A new card clears a previous top-up error.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn update(
    pool: &PgPool,
    pricing: &Pricing,
    user_id: Uuid,
    amount: i64,
    payment_method_id: &PaymentMethodId,
) -> Result<StoredAccount, PaymentsError> {
    check_amount(pricing, "auto_topping_up_amount", amount)?;
    let mut tx = pool.begin().await?;
    crate::cards::get(&mut tx, user_id, payment_method_id)
        .await
        .map_err(|err| match err {
            PaymentsError::NotFound => {
                PaymentsError::invalid("payment_method_id", "Choose one of your saved cards.")
            }
            other => other,
        })?;
    lock(&mut tx, user_id).await?;
    sqlx::query(
        "UPDATE wallets SET payment_method = $2, auto_topping_up_amount_cents = $3, \
                top_up_error = CASE WHEN payment_method IS DISTINCT FROM $2 THEN NULL ELSE top_up_error END, \
                top_up_error_last4 = CASE WHEN payment_method IS DISTINCT FROM $2 THEN NULL ELSE top_up_error_last4 END, \
                closed_at = NULL, updated_at = now() \
         WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(payment_method_id.as_str())
    .bind(amount)
    .execute(&mut *tx)
    .await?;
    let account = stored_account(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(account)
}

/// Closes the stored account: no wallet card, no auto top-up. The balance stays the user's and
/// still pays purchases first (docs/decisions.md).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn close(pool: &PgPool, user_id: Uuid) -> Result<StoredAccount, PaymentsError> {
    let mut tx = pool.begin().await?;
    lock(&mut tx, user_id).await?;
    sqlx::query(
        "UPDATE wallets SET payment_method = NULL, auto_topping_up_amount_cents = 0, \
                top_up_error = NULL, top_up_error_last4 = NULL, closed_at = now(), updated_at = now() \
         WHERE user_id = $1",
    )
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    let account = stored_account(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(account)
}

/// Records a PaymentIntent we created and what its success means.
#[allow(clippy::too_many_arguments)]
pub async fn record_intent(
    conn: &mut PgConnection,
    id: &str,
    user_id: Uuid,
    purpose: &str,
    amount: i64,
    payment_method: &str,
    auto_amount: Option<i64>,
    status: &str,
) -> Result<(), PaymentsError> {
    sqlx::query(
        "INSERT INTO payment_intents (id, user_id, purpose, amount_cents, payment_method_id, auto_topping_up_amount_cents, status) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()",
    )
    .bind(id)
    .bind(user_id)
    .bind(purpose)
    .bind(amount)
    .bind(payment_method)
    .bind(auto_amount)
    .bind(status)
    .execute(conn)
    .await?;
    Ok(())
}

/// Credits a succeeded PaymentIntent to the wallet, once by its id, whoever learns of it first
/// (the webhook, or the service itself after an off-session charge). A wallet-create intent also
/// opens the stored account with its card and amount. Answers whether this call credited it.
#[tracing::instrument(skip_all, fields(stripe.payment_intent = intent_id))]
pub async fn credit_intent(
    conn: &mut PgConnection,
    intent_id: &str,
) -> Result<bool, PaymentsError> {
    let row: Option<(Uuid, String, i64, String, Option<i64>)> = sqlx::query_as(
        "SELECT user_id, purpose, amount_cents, payment_method_id, auto_topping_up_amount_cents \
         FROM payment_intents WHERE id = $1 FOR UPDATE",
    )
    .bind(intent_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((user_id, purpose, amount, pm, auto_amount)) = row else {
        tracing::info!("a PaymentIntent we did not create; ignored");
        return Ok(false);
    };
    sqlx::query(
        "UPDATE payment_intents SET status = 'succeeded', credited_at = COALESCE(credited_at, now()), updated_at = now() WHERE id = $1",
    )
    .bind(intent_id)
    .execute(&mut *conn)
    .await?;
    let (kind, description) = match purpose.as_str() {
        "wallet_create" => (EntryKind::TopUp, "CreditCard Wallet created"),
        "top_up" => (EntryKind::TopUp, "CreditCard Wallet topped up"),
        "auto_top_up" => (EntryKind::AutoTopUp, "Auto top-up"),
        "shortfall" => (EntryKind::TopUp, "Transfer from your card for a purchase"),
        "first_authorisation" => (EntryKind::Authorisation, "First card authorisation"),
        // A card purchase pays the seller directly; the wallet is not involved.
        _ => return Ok(false),
    };
    let credited = post(
        conn,
        user_id,
        kind,
        amount,
        &format!("pi:{intent_id}"),
        description,
    )
    .await?;
    if purpose == "wallet_create" {
        // The wallet opens with the card and amount the user chose, unless it already has a card.
        sqlx::query(
            "UPDATE wallets SET payment_method = COALESCE(payment_method, $2), \
                    auto_topping_up_amount_cents = CASE WHEN payment_method IS NULL THEN $3 ELSE auto_topping_up_amount_cents END, \
                    top_up_error = NULL, top_up_error_last4 = NULL, closed_at = NULL, updated_at = now() \
             WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(&pm)
        .bind(auto_amount.unwrap_or(amount))
        .execute(&mut *conn)
        .await?;
        // The one-time benefit (the first authorisation credit kept in the wallet) is applied
        // with the first wallet.
        sqlx::query("UPDATE customers SET one_time_benefit_applied = true WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(credited)
}

/// Marks a failed PaymentIntent; a failed auto top-up sets the stored account's error.
pub async fn fail_intent(
    conn: &mut PgConnection,
    intent_id: &str,
    message: &str,
) -> Result<(), PaymentsError> {
    let row: Option<(Uuid, String, String, i64)> = sqlx::query_as(
        "UPDATE payment_intents SET status = 'failed', updated_at = now() \
         WHERE id = $1 AND credited_at IS NULL RETURNING user_id, purpose, payment_method_id, amount_cents",
    )
    .bind(intent_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((user_id, purpose, pm, amount)) = row else {
        return Ok(());
    };
    let reference = format!("pi:{intent_id}");
    movements::record_decline(conn, user_id, &purpose, amount, &pm, message, &reference).await?;
    if purpose == "auto_top_up" {
        set_top_up_error(conn, user_id, &pm, message).await?;
    }
    Ok(())
}

pub async fn set_top_up_error(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method: &str,
    message: &str,
) -> Result<(), PaymentsError> {
    sqlx::query(
        "UPDATE wallets SET top_up_error = $2, \
                top_up_error_last4 = (SELECT last4 FROM payment_methods WHERE id = $3), updated_at = now() \
         WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(message)
    .bind(payment_method)
    .execute(conn)
    .await?;
    Ok(())
}

/// Charges a card off-session for `purpose` (the PaymentIntent's metadata, which the webhook and
/// `credit_intent` read), with the idempotency key Stripe gets. The one place off-session charges
/// are made.
pub async fn charge(
    stripe: &dyn Stripe,
    user_id: Uuid,
    customer: &str,
    payment_method: &str,
    amount: i64,
    purpose: &'static str,
    idempotency_key: &str,
) -> Result<crate::stripe::Intent, StripeFailure> {
    let description = match purpose {
        "auto_top_up" => "Evidentia CreditCard Wallet auto top-up",
        "first_authorisation" => "Evidentia card authorisation",
        "card_purchase" => "Evidentia storage extension",
        _ => "Evidentia CreditCard Wallet transfer",
    };
    stripe
        .charge_off_session(OffSessionCharge {
            customer,
            payment_method,
            amount_cents: amount,
            idempotency_key,
            metadata: &[
                ("user_id", user_id.to_string()),
                ("purpose", purpose.to_owned()),
            ],
            description,
        })
        .await
}

/// Records a succeeded off-session charge and credits it (once, by its id) in `conn`'s
/// transaction.
pub async fn record_charge(
    conn: &mut PgConnection,
    intent_id: &str,
    user_id: Uuid,
    purpose: &str,
    amount: i64,
    payment_method: &str,
) -> Result<(), PaymentsError> {
    record_intent(
        conn,
        intent_id,
        user_id,
        purpose,
        amount,
        payment_method,
        None,
        "succeeded",
    )
    .await?;
    credit_intent(conn, intent_id).await?;
    Ok(())
}

/// Spec §9: whenever the balance is below $5.00, the wallet tops up by its amount from the wallet
/// card. Runs after the debit that lowered the balance committed; the wallet row lock makes
/// concurrent purchases top up once. `reason` (the entry that lowered the balance) keys the charge.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn auto_top_up(
    pool: &PgPool,
    stripe: &dyn Stripe,
    pricing: &Pricing,
    user_id: Uuid,
    reason: &str,
) -> Result<(), PaymentsError> {
    let mut tx = pool.begin().await?;
    let balance = lock(&mut tx, user_id).await?;
    let row: (Option<String>, i64, Option<String>, Option<String>) = sqlx::query_as(
        "SELECT w.payment_method, w.auto_topping_up_amount_cents, w.top_up_error, c.stripe_customer_id \
         FROM wallets w JOIN customers c ON c.user_id = w.user_id WHERE w.user_id = $1",
    )
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    let (Some(pm), amount, None, Some(customer)) = row else {
        return Ok(());
    };
    if balance >= pricing.auto_top_up_threshold || amount <= 0 {
        return Ok(());
    }
    // The lock is held across the charge, so a concurrent purchase waits and then sees the
    // topped-up balance instead of charging again.
    let key = format!("auto-top-up-{reason}");
    match charge(stripe, user_id, &customer, &pm, amount, "auto_top_up", &key).await {
        Ok(intent) => {
            record_charge(&mut tx, &intent.id, user_id, "auto_top_up", amount, &pm).await?;
            tx.commit().await?;
            tracing::info!(amount, "wallet topped up automatically");
        }
        Err(StripeFailure::Declined { code, message }) => {
            tracing::info!(decline.code = %code, "auto top-up declined");
            set_top_up_error(&mut tx, user_id, &pm, &message).await?;
            movements::record_decline(&mut tx, user_id, "auto_top_up", amount, &pm, &message, &key)
                .await?;
            tx.commit().await?;
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}

/// Spec §9: authorising a card for the first time charges $0.50. It is charged once per user, on
/// their first saved card, and kept as wallet credit (the one-time benefit).
pub async fn first_authorisation(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    customer: &str,
    payment_method: &str,
) -> Result<(), PaymentsError> {
    let claimed = sqlx::query(
        "UPDATE customers SET first_authorised_at = now() WHERE user_id = $1 AND first_authorised_at IS NULL",
    )
    .bind(user_id)
    .execute(pool)
    .await?
    .rows_affected()
        == 1;
    if !claimed {
        return Ok(());
    }
    let amount = crate::pricing::FIRST_AUTHORISATION;
    let key = format!("first-authorisation-{user_id}");
    let purpose = "first_authorisation";
    match charge(
        stripe,
        user_id,
        customer,
        payment_method,
        amount,
        purpose,
        &key,
    )
    .await
    {
        Ok(intent) => {
            let mut tx = pool.begin().await?;
            record_charge(
                &mut tx,
                &intent.id,
                user_id,
                purpose,
                amount,
                payment_method,
            )
            .await?;
            tx.commit().await?;
        }
        Err(StripeFailure::Declined { code, message }) => {
            tracing::info!(decline.code = %code, "the first authorisation was declined");
            let mut conn = pool.acquire().await?;
            movements::record_decline(
                &mut conn,
                user_id,
                purpose,
                amount,
                payment_method,
                &message,
                &key,
            )
            .await?;
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}
