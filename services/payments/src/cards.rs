//! Saved cards (spec §2 "Payment-method list", §4 "Add-card flow"): a card the browser created at
//! Stripe is registered here, set up with a SetupIntent, and saved once Stripe says the setup
//! succeeded. A card whose fingerprint matches a saved card is a duplicate.

use chrono::Utc;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    domain::{CustomerId, PaymentMethodId},
    error::PaymentsError,
    stripe::{Stripe, StripeFailure},
    wallet,
};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Card {
    pub id: String,
    pub brand: String,
    pub last4: String,
    pub fingerprint: String,
    pub exp_month: i32,
    pub exp_year: i32,
    pub default_method: bool,
    pub wallet: bool,
}

pub const REMOVE_DEFAULT_MESSAGE: &str =
    "Cannot remove user's default payment method. Set another method as default and try again.";

/// The user's Stripe customer id, or NotFound when they have none yet.
pub async fn customer_id(conn: &mut PgConnection, user_id: Uuid) -> Result<String, PaymentsError> {
    sqlx::query_scalar::<_, Option<String>>(
        "SELECT stripe_customer_id FROM customers WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?
    .flatten()
    .ok_or(PaymentsError::NoCustomer)
}

/// Step 3 of the add-card flow: records the browser's PaymentMethod and answers its fingerprint.
#[tracing::instrument(skip_all, fields(user.id = %user_id, stripe.payment_method = %payment_method_id))]
pub async fn register(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    payment_method_id: &PaymentMethodId,
) -> Result<Card, PaymentsError> {
    let payment_method_id = payment_method_id.as_str();
    let mut conn = pool.acquire().await?;
    let customer = customer_id(&mut conn, user_id).await?;
    let details = match stripe.retrieve_payment_method(payment_method_id).await {
        Ok(details) => details,
        Err(StripeFailure::Rejected { .. }) => return Err(PaymentsError::NotFound),
        Err(err) => return Err(err.into()),
    };
    // Another customer's card is not this user's to register.
    if details.customer.as_deref().is_some_and(|c| c != customer) {
        return Err(PaymentsError::NotFound);
    }
    let fingerprint = if details.fingerprint.is_empty() {
        format!(
            "{}-{}-{}-{}",
            details.brand, details.last4, details.exp_month, details.exp_year
        )
    } else {
        details.fingerprint.clone()
    };
    let owner: Option<Uuid> = sqlx::query_scalar(
        "INSERT INTO payment_methods (id, user_id, brand, last4, fingerprint, exp_month, exp_year, status) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending') \
         ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id RETURNING user_id",
    )
    .bind(payment_method_id)
    .bind(user_id)
    .bind(&details.brand)
    .bind(&details.last4)
    .bind(&fingerprint)
    .bind(details.exp_month)
    .bind(details.exp_year)
    .fetch_optional(&mut *conn)
    .await?;
    if owner != Some(user_id) {
        return Err(PaymentsError::NotFound);
    }
    Ok(Card {
        id: payment_method_id.to_owned(),
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
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    stripe_customer_id: &CustomerId,
) -> Result<String, PaymentsError> {
    let mut conn = pool.acquire().await?;
    let customer = customer_id(&mut conn, user_id).await?;
    if customer != stripe_customer_id.as_str() {
        return Err(PaymentsError::NotFound);
    }
    let pending: Option<String> = sqlx::query_scalar(
        "SELECT id FROM payment_methods WHERE user_id = $1 AND status = 'pending' \
         ORDER BY created_at DESC LIMIT 1",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    let key = format!("setup-{}-{}", user_id, pending.as_deref().unwrap_or("none"));
    let intent = stripe.create_setup_intent(&customer, &key).await?;
    if let Some(pm) = &pending {
        sqlx::query("UPDATE payment_methods SET setup_intent_id = $2 WHERE id = $1")
            .bind(pm)
            .bind(&intent.id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(intent.client_secret)
}

/// Saves the user's pending cards whose setup succeeded at Stripe (attaching them to the customer,
/// which the emulator does not do on confirmation), drops the failed ones, and marks duplicates.
/// The first card a user saves gets the one-time $0.50 authorisation (spec §9). A card left
/// pending for a day (its setup never confirmed) is no longer asked about.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn reconcile(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
) -> Result<(), PaymentsError> {
    let pending: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT id, setup_intent_id FROM payment_methods WHERE user_id = $1 AND status = 'pending' \
         AND created_at > now() - interval '1 day'",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    for (pm, setup_intent) in pending {
        let Some(setup_intent) = setup_intent else {
            continue;
        };
        let intent = stripe.retrieve_setup_intent(&setup_intent).await?;
        match intent.status.as_str() {
            "succeeded" => {
                // The card the browser confirmed the setup with is the one to save.
                let confirmed = intent.payment_method.unwrap_or(pm.clone());
                if confirmed != pm {
                    mark(pool, &pm, "failed").await?;
                    let confirmed = PaymentMethodId::parse("payment_method", &confirmed)
                        .map_err(|e| anyhow::anyhow!("Stripe's confirmed card: {}", e.message))?;
                    register(pool, stripe, user_id, &confirmed).await?;
                }
                save(pool, stripe, user_id, &confirmed).await?;
            }
            "canceled" => mark(pool, &pm, "failed").await?,
            _ => {}
        }
    }
    Ok(())
}

async fn mark(pool: &PgPool, pm: &str, status: &str) -> Result<(), PaymentsError> {
    sqlx::query("UPDATE payment_methods SET status = $2 WHERE id = $1 AND status = 'pending'")
        .bind(pm)
        .bind(status)
        .execute(pool)
        .await?;
    Ok(())
}

async fn save(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    pm: &str,
) -> Result<(), PaymentsError> {
    let mut tx = pool.begin().await?;
    let customer: (String, Option<String>) = sqlx::query_as(
        "SELECT stripe_customer_id, default_payment_method FROM customers \
         WHERE user_id = $1 FOR UPDATE",
    )
    .bind(user_id)
    .fetch_one(&mut *tx)
    .await?;
    let still_pending: Option<String> = sqlx::query_scalar(
        "SELECT fingerprint FROM payment_methods WHERE id = $1 AND status = 'pending'",
    )
    .bind(pm)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(fingerprint) = still_pending else {
        return Ok(());
    };
    let duplicate: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM payment_methods \
         WHERE user_id = $1 AND fingerprint = $2 AND status = 'saved')",
    )
    .bind(user_id)
    .bind(&fingerprint)
    .fetch_one(&mut *tx)
    .await?;
    if duplicate {
        sqlx::query("UPDATE payment_methods SET status = 'duplicate' WHERE id = $1")
            .bind(pm)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        // Best effort: a duplicate left attached is harmless, only never listed.
        if let Err(err) = stripe.detach_payment_method(pm).await {
            tracing::warn!(error = %err, "could not detach a duplicate card");
        }
        return Ok(());
    }
    match stripe.attach_payment_method(pm, &customer.0).await {
        Ok(()) => {}
        // Already attached (Stripe attaches on confirmation) is what we want.
        Err(StripeFailure::Rejected { message }) if message.contains("already") => {}
        Err(err) => return Err(err.into()),
    }
    sqlx::query("UPDATE payment_methods SET status = 'saved', saved_at = now() WHERE id = $1")
        .bind(pm)
        .execute(&mut *tx)
        .await?;
    let first_card = customer.1.is_none();
    if first_card {
        // Spec §2: a new method becomes the default for card payments when there is none.
        sqlx::query(
            "UPDATE customers SET default_payment_method = $2, updated_at = now() WHERE user_id = $1",
        )
        .bind(user_id)
        .bind(pm)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    if first_card {
        stripe.set_default_payment_method(&customer.0, pm).await?;
    }
    // The card is saved whatever happens to the authorisation charge.
    if let Err(err) = wallet::first_authorisation(pool, stripe, user_id, &customer.0, pm).await {
        tracing::error!(error = ?err, "the first authorisation charge failed");
    }
    Ok(())
}

/// The saved cards, oldest first, with the default and wallet flags.
pub async fn list(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<Card>, PaymentsError> {
    Ok(sqlx::query_as(
        "SELECT p.id, p.brand, p.last4, p.fingerprint, p.exp_month, p.exp_year, \
                (c.default_payment_method IS NOT DISTINCT FROM p.id) AS default_method, \
                (w.payment_method IS NOT DISTINCT FROM p.id) AS wallet \
         FROM payment_methods p JOIN customers c ON c.user_id = p.user_id \
         LEFT JOIN wallets w ON w.user_id = p.user_id \
         WHERE p.user_id = $1 AND p.status = 'saved' ORDER BY p.saved_at, p.id",
    )
    .bind(user_id)
    .fetch_all(conn)
    .await?)
}

pub async fn get(
    conn: &mut PgConnection,
    user_id: Uuid,
    payment_method_id: &PaymentMethodId,
) -> Result<Card, PaymentsError> {
    list(conn, user_id)
        .await?
        .into_iter()
        .find(|c| c.id == payment_method_id.as_str())
        .ok_or(PaymentsError::NotFound)
}

#[tracing::instrument(skip_all, fields(user.id = %user_id, stripe.payment_method = %id))]
pub async fn set_default(
    pool: &PgPool,
    stripe: &dyn Stripe,
    user_id: Uuid,
    id: &PaymentMethodId,
) -> Result<Vec<Card>, PaymentsError> {
    let payment_method_id = id.as_str();
    reconcile(pool, stripe, user_id).await?;
    let mut tx = pool.begin().await?;
    let customer = customer_id(&mut tx, user_id).await?;
    get(&mut tx, user_id, id).await?;
    sqlx::query(
        "UPDATE customers SET default_payment_method = $2, updated_at = now() WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(payment_method_id)
    .execute(&mut *tx)
    .await?;
    stripe
        .set_default_payment_method(&customer, payment_method_id)
        .await?;
    tx.commit().await?;
    let mut conn = pool.acquire().await?;
    list(&mut conn, user_id).await
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
    let payment_method_id = id.as_str();
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT 1 FROM customers WHERE user_id = $1 FOR UPDATE")
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let card = get(&mut tx, user_id, id).await?;
    if card.default_method {
        return Err(PaymentsError::Refused(REMOVE_DEFAULT_MESSAGE));
    }
    if card.wallet {
        return Err(PaymentsError::Refused(
            "This card pays for your CreditCard Wallet. Choose another card for the wallet first.",
        ));
    }
    sqlx::query("UPDATE payment_methods SET status = 'removed', removed_at = $2 WHERE id = $1")
        .bind(payment_method_id)
        .bind(Utc::now())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    if let Err(err) = stripe.detach_payment_method(payment_method_id).await {
        tracing::warn!(error = %err, "could not detach a removed card at Stripe");
    }
    let mut conn = pool.acquire().await?;
    list(&mut conn, user_id).await
}
