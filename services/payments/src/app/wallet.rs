//! The CreditCard Wallet (spec §1, §9): the stored account (wallet card and auto top-up amount),
//! the PaymentIntents the browser confirms to create and top it up, the auto top-up, and the
//! credits events bring (promo codes, refunds).

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{cards, charges, customers, ledger, rewards},
    domain::{EntryKind, PaymentMethodId, Purpose, StoredAccount},
    error::PaymentsError,
    pricing::Pricing,
    store::{self, declines, intents, purchases, wallets},
    stripe::{Intent, Stripe, StripeFailure},
};

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

pub async fn stored_account(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<StoredAccount, PaymentsError> {
    Ok(wallets::account(conn, user_id)
        .await?
        .map(account_of)
        .unwrap_or_default())
}

/// The stored account a wallet row shows.
pub fn account_of(row: wallets::AccountRow) -> StoredAccount {
    StoredAccount {
        active: row.payment_method.is_some(),
        payment_method_id: row.payment_method,
        // Spec §3: the stored account carries the failed card's last4 with the error.
        last4: if row.top_up_error.is_some() {
            row.top_up_error_last4.or(row.last4)
        } else {
            row.last4
        },
        brand: row.brand,
        auto_topping_up_amount: row.auto_amount,
        balance: row.balance,
        top_up_error: row.top_up_error,
    }
}

/// A saved card of the user's for the wallet to use; any other is the field's error.
async fn saved_card(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: &PaymentMethodId,
) -> Result<(), PaymentsError> {
    match cards::get(conn, user_id, id).await {
        Ok(_) => Ok(()),
        Err(PaymentsError::NotFound) => Err(PaymentsError::invalid(
            "payment_method_id",
            "Choose one of your saved cards.",
        )),
        Err(other) => Err(other),
    }
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
    // The billing lock `cards::remove` takes, so the card cannot be removed between this check
    // and the wallet naming it (it would be charged by every auto top-up after).
    store::customers::lock_billing(&mut tx, user_id).await?;
    saved_card(&mut tx, user_id, payment_method_id).await?;
    ledger::lock(&mut tx, user_id).await?;
    wallets::set_card(&mut tx, user_id, payment_method_id.as_str(), amount).await?;
    let account = stored_account(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(account)
}

/// Closes the stored account: no wallet card, no auto top-up. The balance stays the user's and
/// still pays purchases first (docs/decisions.md).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn close(pool: &PgPool, user_id: Uuid) -> Result<StoredAccount, PaymentsError> {
    let mut tx = pool.begin().await?;
    ledger::lock(&mut tx, user_id).await?;
    wallets::close(&mut tx, user_id).await?;
    let account = stored_account(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(account)
}

/// A PaymentIntent the browser confirms: creating the wallet (spec §7 action 2) or topping it up
/// (action 4).
#[derive(Debug, Clone)]
pub struct BrowserIntent {
    pub purpose: Purpose,
    /// The action number the client sent, kept in Stripe's metadata.
    pub action: i32,
    pub amount: i64,
    pub payment_method: PaymentMethodId,
}

/// Creates the PaymentIntent at Stripe (the key makes a retry the same intent). The card is
/// checked first, on the caller's connection (the one holding the request's key: a second
/// connection taken while it is held could wait for ever on a pool that requests like this one
/// have emptied); nothing is written.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn create_intent(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    intent: &BrowserIntent,
    key: &str,
) -> Result<Intent, PaymentsError> {
    let customer = customers::id_of(conn, user_id).await?;
    saved_card(conn, user_id, &intent.payment_method).await?;
    Ok(stripe
        .create_payment_intent(
            &customer,
            intent.payment_method.as_str(),
            intent.amount,
            &[
                ("user_id", user_id.to_string()),
                ("purpose", intent.purpose.as_str().to_owned()),
                ("action", intent.action.to_string()),
                ("amount", intent.amount.to_string()),
            ],
            &format!("pi-{user_id}-{key}"),
        )
        .await?)
}

/// Records the created intent, so its success (the webhook, or [`reconcile_intents`]) credits it.
pub async fn record_intent(
    conn: &mut PgConnection,
    user_id: Uuid,
    intent: &BrowserIntent,
    intent_id: &str,
) -> Result<(), PaymentsError> {
    intents::upsert(
        conn,
        &intents::NewIntent {
            id: intent_id,
            user_id,
            purpose: intent.purpose,
            amount: intent.amount,
            payment_method: intent.payment_method.as_str(),
            auto_amount: (intent.purpose == Purpose::WalletCreate).then_some(intent.amount),
            status: "created",
        },
    )
    .await?;
    Ok(())
}

/// Credits the user's browser-confirmed intents that succeeded but whose webhook has not arrived
/// yet (Stripe sends it a moment later; it may be lost). Crediting is once by intent id, so the
/// webhook arriving after changes nothing.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn reconcile_intents(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
) -> Result<(), PaymentsError> {
    let open = intents::open(&mut *pool.acquire().await?, user_id).await?;
    for id in open {
        let intent = match stripe.retrieve_payment_intent(&id).await {
            Ok(intent) => intent,
            Err(StripeFailure::Other(err)) => return Err(PaymentsError::Internal(err)),
            Err(err) => {
                tracing::warn!(error = %err, "could not read a PaymentIntent");
                continue;
            }
        };
        if intent.status == "succeeded" {
            let mut tx = pool.begin().await?;
            charges::credit_intent(&mut tx, &id).await?;
            tx.commit().await?;
        }
    }
    Ok(())
}

/// Spec §9: whenever the balance is below $5.00, the wallet tops up by its amount from the wallet
/// card. Runs after the debit that lowered the balance committed. The top-up is claimed first, so
/// concurrent purchases top up once; `reason` (the entry that lowered the balance) keys the charge.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn auto_top_up(
    pool: &PgPool,
    stripe: &dyn Stripe,
    pricing: &Pricing,
    user_id: Uuid,
    reason: &str,
) -> Result<(), PaymentsError> {
    let claim = wallets::claim_top_up(
        &mut *pool.acquire().await?,
        user_id,
        pricing.auto_top_up_threshold,
    )
    .await?;
    let Some(claim) = claim else {
        return Ok(());
    };
    let key = format!("auto-top-up-{reason}");
    let charge = charges::Charge {
        user_id,
        customer: &claim.customer,
        payment_method: &claim.payment_method,
        amount: claim.amount,
        purpose: Purpose::AutoTopUp,
        idempotency_key: &key,
    };
    let charged = charges::charge(stripe, &charge).await;
    let mut tx = pool.begin().await?;
    wallets::release_top_up(&mut tx, user_id).await?;
    match charged {
        Ok(intent) => {
            charges::record_charge(&mut tx, &intent.id, &charge).await?;
            tracing::info!(amount = claim.amount, "wallet topped up automatically");
        }
        Err(StripeFailure::Declined { code, message }) => {
            tracing::info!(decline.code = %code, "auto top-up declined");
            wallets::set_top_up_error(&mut tx, user_id, &claim.payment_method, &message).await?;
            declines::insert(&mut tx, &charge.declined(&message)).await?;
        }
        Err(other) => {
            tx.commit().await?;
            return Err(other.into());
        }
    }
    tx.commit().await?;
    Ok(())
}

/// A promo code a user applied credits the wallet, once per redemption.
pub async fn credit_promo(
    conn: &mut PgConnection,
    user_id: Uuid,
    redemption_id: &str,
    code: &str,
    amount: i64,
) -> Result<bool, PaymentsError> {
    ledger::post(
        conn,
        user_id,
        EntryKind::Promo,
        amount,
        &format!("promo:{redemption_id}"),
        &format!("Promo code {code}"),
    )
    .await
    .map(|left| left.is_some())
}

/// A paid storage extension evidence could not apply is refunded to the wallet in full (what came
/// from the wallet and what the card paid), once per purchase, and a referral reward paid on it
/// is taken back. `None`: no such purchase.
pub async fn refund_purchase(
    conn: &mut PgConnection,
    owner: Uuid,
    purchase: Uuid,
    reason: &str,
) -> Result<Option<(i64, bool)>, PaymentsError> {
    let Some(amount) = purchases::mark_refunded(conn, purchase, owner)
        .await?
        .filter(|a| *a > 0)
    else {
        return Ok(None);
    };
    let refunded = ledger::post(
        conn,
        owner,
        EntryKind::Refund,
        amount,
        &format!("refund:{purchase}"),
        // The movement is labelled a refund where it is shown: the reason alone says why.
        reason,
    )
    .await?
    .is_some();
    rewards::reverse(conn, purchase).await?;
    Ok(Some((amount, refunded)))
}
