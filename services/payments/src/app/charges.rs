//! Card charges and what they mean: an off-session charge (the one place they are made), the
//! record of a PaymentIntent, its credit to the wallet once by its id, and declined attempts.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::ledger,
    domain::{Decline, Purpose},
    error::PaymentsError,
    store::{customers, declines, intents, wallets},
    stripe::{Intent, OffSessionCharge, Stripe, StripeFailure},
};

/// One off-session charge to make.
#[derive(Debug, Clone, Copy)]
pub struct Charge<'a> {
    pub user_id: Uuid,
    pub customer: &'a str,
    pub payment_method: &'a str,
    pub amount: i64,
    pub purpose: Purpose,
    /// The key Stripe gets: a retried step is the same charge.
    pub idempotency_key: &'a str,
}

impl Charge<'_> {
    /// The declined attempt, recorded under the idempotency key.
    pub fn declined<'m>(&'m self, message: &'m str) -> Decline<'m> {
        Decline {
            user_id: self.user_id,
            purpose: self.purpose,
            amount: self.amount,
            payment_method: self.payment_method,
            message,
            reference: self.idempotency_key,
        }
    }
}

/// Charges a card off-session. The purpose travels in the PaymentIntent's metadata, which the
/// webhook reads.
pub async fn charge(stripe: &dyn Stripe, charge: &Charge<'_>) -> Result<Intent, StripeFailure> {
    stripe
        .charge_off_session(OffSessionCharge {
            customer: charge.customer,
            payment_method: charge.payment_method,
            amount_cents: charge.amount,
            idempotency_key: charge.idempotency_key,
            metadata: &[
                ("user_id", charge.user_id.to_string()),
                ("purpose", charge.purpose.as_str().to_owned()),
            ],
            description: charge.purpose.statement(),
        })
        .await
}

/// Records a succeeded off-session charge and credits it (once, by its id) in `conn`'s
/// transaction.
pub async fn record_charge(
    conn: &mut PgConnection,
    intent_id: &str,
    charge: &Charge<'_>,
) -> Result<(), PaymentsError> {
    intents::upsert(
        conn,
        &intents::NewIntent {
            id: intent_id,
            user_id: charge.user_id,
            purpose: charge.purpose,
            amount: charge.amount,
            payment_method: charge.payment_method,
            auto_amount: None,
            status: "succeeded",
        },
    )
    .await?;
    credit_intent(conn, intent_id).await?;
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
    let Some(intent) = intents::lock(conn, intent_id).await? else {
        tracing::info!("a PaymentIntent we did not create; ignored");
        return Ok(false);
    };
    intents::mark_credited(conn, intent_id).await?;
    let purpose = Purpose::parse(&intent.purpose)
        .ok_or_else(|| anyhow::anyhow!("an intent with the purpose {:?}", intent.purpose))?;
    // A card purchase pays the seller directly; the wallet is not involved.
    let Some((kind, description)) = purpose.credit() else {
        return Ok(false);
    };
    let credited = ledger::post(
        conn,
        intent.user_id,
        kind,
        intent.amount_cents,
        &format!("pi:{intent_id}"),
        description,
    )
    .await?
    .is_some();
    if purpose == Purpose::WalletCreate {
        let amount = intent
            .auto_topping_up_amount_cents
            .unwrap_or(intent.amount_cents);
        wallets::open(conn, intent.user_id, &intent.payment_method_id, amount).await?;
        // The one-time benefit (the first authorisation credit kept in the wallet) is applied
        // with the first wallet.
        customers::mark_benefit_applied(conn, intent.user_id).await?;
    }
    Ok(credited)
}

/// Marks a failed PaymentIntent and records the declined attempt; a failed auto top-up sets the
/// stored account's error.
pub async fn fail_intent(
    conn: &mut PgConnection,
    intent_id: &str,
    message: &str,
) -> Result<(), PaymentsError> {
    let Some(intent) = intents::mark_failed(conn, intent_id).await? else {
        return Ok(());
    };
    let purpose = Purpose::parse(&intent.purpose)
        .ok_or_else(|| anyhow::anyhow!("an intent with the purpose {:?}", intent.purpose))?;
    let reference = format!("pi:{intent_id}");
    declines::insert(
        conn,
        &Decline {
            user_id: intent.user_id,
            purpose,
            amount: intent.amount_cents,
            payment_method: &intent.payment_method_id,
            message,
            reference: &reference,
        },
    )
    .await?;
    if purpose == Purpose::AutoTopUp {
        wallets::set_top_up_error(conn, intent.user_id, &intent.payment_method_id, message).await?;
    }
    Ok(())
}
