//! Saved cards (spec §2 "Payment-method list", §4 "Add-card flow"): a card the browser created at
//! Stripe is registered here, set up with a SetupIntent, and saved once Stripe says the setup
//! succeeded. A card whose fingerprint matches a saved card is a duplicate. The first saved card
//! is authorised with $0.50 kept as wallet credit (spec §9).

use chrono::Utc;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{charges, customers},
    domain::{Card, CustomerId, PaymentMethodId, Purpose},
    error::PaymentsError,
    pricing,
    store::{self, declines, payment_methods},
    stripe::{Stripe, StripeFailure},
};

pub const REMOVE_DEFAULT_MESSAGE: &str =
    "Cannot remove user's default payment method. Set another method as default and try again.";

/// Step 3 of the add-card flow: records the browser's PaymentMethod and answers its fingerprint.
#[tracing::instrument(skip_all, fields(user.id = %user_id, stripe.payment_method = %payment_method_id))]
pub async fn register(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    payment_method_id: &PaymentMethodId,
) -> Result<Card, PaymentsError> {
    let customer = customers::id_of(conn, user_id).await?;
    let mut details = match stripe
        .retrieve_payment_method(payment_method_id.as_str())
        .await
    {
        Ok(details) => details,
        Err(StripeFailure::Rejected { .. }) => return Err(PaymentsError::NotFound),
        Err(err) => return Err(err.into()),
    };
    // Another customer's card is not this user's to register.
    if details.customer.as_deref().is_some_and(|c| c != customer) {
        return Err(PaymentsError::NotFound);
    }
    details.id = payment_method_id.as_str().to_owned();
    let fingerprint = if details.fingerprint.is_empty() {
        format!(
            "{}-{}-{}-{}",
            details.brand, details.last4, details.exp_month, details.exp_year
        )
    } else {
        details.fingerprint.clone()
    };
    let owner = payment_methods::insert_pending(conn, user_id, &details, &fingerprint).await?;
    if owner != user_id {
        return Err(PaymentsError::NotFound);
    }
    Ok(Card {
        id: details.id,
        brand: details.brand,
        last4: details.last4,
        fingerprint,
        exp_month: details.exp_month,
        exp_year: details.exp_year,
        default_method: false,
        wallet: false,
    })
}

/// Step 5: a SetupIntent for the user's newest registered card (the one the browser confirms).
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn create_setup_intent(
    conn: &mut PgConnection,
    stripe: &dyn Stripe,
    user_id: Uuid,
    stripe_customer_id: &CustomerId,
) -> Result<String, PaymentsError> {
    let customer = customers::id_of(conn, user_id).await?;
    if customer != stripe_customer_id.as_str() {
        return Err(PaymentsError::NotFound);
    }
    let pending = payment_methods::newest_pending(conn, user_id).await?;
    let key = format!("setup-{}-{}", user_id, pending.as_deref().unwrap_or("none"));
    let intent = stripe.create_setup_intent(&customer, &key).await?;
    if let Some(pm) = &pending {
        payment_methods::set_setup_intent(conn, pm, &intent.id).await?;
    }
    Ok(intent.client_secret)
}

/// Saves the user's pending cards whose setup succeeded at Stripe (attaching them to the customer,
/// which the emulator does not do on confirmation), drops the failed ones, and marks duplicates.
/// A card left pending for a day (its setup never confirmed) is no longer asked about.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn reconcile(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
) -> Result<(), PaymentsError> {
    let pending = payment_methods::recent_pending(&mut *pool.acquire().await?, user_id).await?;
    for card in pending {
        let Some(setup_intent) = card.setup_intent_id else {
            continue;
        };
        let intent = stripe.retrieve_setup_intent(&setup_intent).await?;
        match intent.status.as_str() {
            "succeeded" => {
                // The card the browser confirmed the setup with is the one to save.
                let confirmed = intent.payment_method.unwrap_or(card.id.clone());
                if confirmed != card.id {
                    payment_methods::fail_if_pending(&mut *pool.acquire().await?, &card.id).await?;
                    let confirmed = PaymentMethodId::parse("payment_method", &confirmed)
                        .map_err(|e| anyhow::anyhow!("Stripe's confirmed card: {}", e.message))?;
                    register(&mut *pool.acquire().await?, stripe, user_id, &confirmed).await?;
                }
                save(pool, stripe, user_id, &confirmed).await?;
            }
            "canceled" => {
                payment_methods::fail_if_pending(&mut *pool.acquire().await?, &card.id).await?
            }
            _ => {}
        }
    }
    Ok(())
}

/// Saves one confirmed card: a duplicate is marked and detached; the user's first card becomes the
/// default and is authorised. The card row is written before Stripe is told, and Stripe's answers
/// are awaited outside the transaction.
async fn save(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    pm: &str,
) -> Result<(), PaymentsError> {
    let mut tx = pool.begin().await?;
    let billing = store::customers::lock_billing(&mut tx, user_id)
        .await?
        .ok_or(PaymentsError::NoCustomer)?;
    let customer = billing
        .stripe_customer_id
        .ok_or(PaymentsError::NoCustomer)?;
    let Some(fingerprint) = payment_methods::pending_fingerprint(&mut tx, pm).await? else {
        return Ok(());
    };
    if payment_methods::saved_with_fingerprint(&mut tx, user_id, &fingerprint).await? {
        payment_methods::mark_duplicate(&mut tx, pm).await?;
        tx.commit().await?;
        // Best effort: a duplicate left attached is harmless, only never listed.
        if let Err(err) = stripe.detach_payment_method(pm).await {
            tracing::warn!(error = %err, "could not detach a duplicate card");
        }
        return Ok(());
    }
    match stripe.attach_payment_method(pm, &customer).await {
        Ok(()) => {}
        // Already attached (Stripe attaches on confirmation) is what we want.
        Err(StripeFailure::Rejected { message }) if message.contains("already") => {}
        Err(err) => return Err(err.into()),
    }
    payment_methods::mark_saved(&mut tx, pm).await?;
    let first_card = billing.default_payment_method.is_none();
    if first_card {
        // Spec §2: a new method becomes the default for card payments when there is none.
        store::customers::set_default_method(&mut tx, user_id, pm).await?;
    }
    tx.commit().await?;
    if first_card {
        stripe.set_default_payment_method(&customer, pm).await?;
    }
    // The card is saved whatever happens to the authorisation charge.
    if let Err(err) = first_authorisation(pool, stripe, user_id, &customer, pm).await {
        tracing::error!(error = ?err, "the first authorisation charge failed");
    }
    Ok(())
}

/// Spec §9: authorising a card for the first time charges $0.50. It is charged once per user, on
/// their first saved card, and kept as wallet credit (the one-time benefit).
async fn first_authorisation(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    customer: &str,
    payment_method: &str,
) -> Result<(), PaymentsError> {
    if !store::customers::claim_first_authorisation(&mut *pool.acquire().await?, user_id).await? {
        return Ok(());
    }
    let key = format!("first-authorisation-{user_id}");
    let charge = charges::Charge {
        user_id,
        customer,
        payment_method,
        amount: pricing::FIRST_AUTHORISATION,
        purpose: Purpose::FirstAuthorisation,
        idempotency_key: &key,
    };
    match charges::charge(stripe, &charge).await {
        Ok(intent) => {
            let mut tx = pool.begin().await?;
            charges::record_charge(&mut tx, &intent.id, &charge).await?;
            tx.commit().await?;
        }
        Err(StripeFailure::Declined { code, message }) => {
            tracing::info!(decline.code = %code, "the first authorisation was declined");
            declines::insert(&mut *pool.acquire().await?, &charge.declined(&message)).await?;
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}

/// The saved cards, oldest first, with the default and wallet flags.
pub async fn list(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<Card>, PaymentsError> {
    Ok(payment_methods::saved(conn, user_id).await?)
}

/// One of the user's saved cards; another user's, or one not saved, is `NotFound`.
pub async fn get(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: &PaymentMethodId,
) -> Result<Card, PaymentsError> {
    list(conn, user_id)
        .await?
        .into_iter()
        .find(|c| c.id == id.as_str())
        .ok_or(PaymentsError::NotFound)
}

/// Makes a saved card the default. Ours is written first; Stripe's default follows, and a retry
/// sets it again. Under the billing lock [`remove`] takes: a card removed meanwhile is not found
/// here, and one made default here cannot be removed before this commits.
#[tracing::instrument(skip_all, fields(user.id = %user_id, stripe.payment_method = %id))]
pub async fn set_default(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    id: &PaymentMethodId,
) -> Result<Vec<Card>, PaymentsError> {
    reconcile(pool, stripe, user_id).await?;
    let mut tx = pool.begin().await?;
    store::customers::lock_billing(&mut tx, user_id).await?;
    // The card first: another user's card is not found, whatever state their customer is in.
    get(&mut tx, user_id, id).await?;
    let customer = customers::id_of(&mut tx, user_id).await?;
    store::customers::set_default_method(&mut tx, user_id, id.as_str()).await?;
    tx.commit().await?;
    stripe
        .set_default_payment_method(&customer, id.as_str())
        .await?;
    list(&mut *pool.acquire().await?, user_id).await
}

/// Removes a saved card. The default card cannot be removed (spec §8); the wallet card can be
/// only after the wallet moves to another card or closes.
#[tracing::instrument(skip_all, fields(user.id = %user_id, stripe.payment_method = %id))]
pub async fn remove(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    id: &PaymentMethodId,
) -> Result<Vec<Card>, PaymentsError> {
    let mut tx = pool.begin().await?;
    store::customers::lock_billing(&mut tx, user_id).await?;
    let card = get(&mut tx, user_id, id).await?;
    if card.default_method {
        return Err(PaymentsError::Refused(REMOVE_DEFAULT_MESSAGE));
    }
    if card.wallet {
        return Err(PaymentsError::Refused(
            "This card pays for your CreditCard Wallet. Choose another card for the wallet first.",
        ));
    }
    payment_methods::mark_removed(&mut tx, id.as_str(), Utc::now()).await?;
    tx.commit().await?;
    if let Err(err) = stripe.detach_payment_method(id.as_str()).await {
        tracing::warn!(error = %err, "could not detach a removed card at Stripe");
    }
    list(&mut *pool.acquire().await?, user_id).await
}
