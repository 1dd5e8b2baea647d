//! Events payments reacts to: a new account gets its Stripe customer; a redeemed promo code
//! credits the wallet; a referral's reward is recorded (and decided when the friend already paid);
//! a paid extension evidence could not apply is refunded to the wallet; a purged account's payment
//! data is deleted. Each handler runs in the transaction that records the
//! event as processed.

use std::sync::Arc;

use evidentia_common::handler;
use evidentia_proto::events::v1::{
    AccountCreated, AccountPurged, PromoCodeRedeemed, ReferralRecorded, StorageExtensionRefused,
};
use uuid::Uuid;

use crate::{
    app::{customers, rewards, wallet},
    pricing::Pricing,
    store::{self, idempotency_keys, payment_methods},
    stripe::Stripe,
};

pub struct CreateCustomerOnSignUp {
    pub stripe: Arc<dyn Stripe>,
}

handler!(
    CreateCustomerOnSignUp,
    AccountCreated,
    |handler, conn, event| {
        let user_id = Uuid::parse_str(&event.user_id)?;
        let name = format!("{} {}", event.first_name, event.last_name);
        customers::ensure(conn, handler.stripe.as_ref(), user_id, &event.email, &name).await?;
        Ok(())
    }
);

/// A promo code a user applied (referrals) credits the wallet, once per redemption.
pub struct CreditPromoCode;

handler!(CreditPromoCode, PromoCodeRedeemed, |conn, event| {
    let user_id = Uuid::parse_str(&event.user_id)?;
    if event.amount <= 0 {
        anyhow::bail!(
            "a promo redemption without an amount: {}",
            event.redemption_id
        );
    }
    let credited = wallet::credit_promo(
        conn,
        user_id,
        &event.redemption_id,
        &event.code,
        event.amount,
    )
    .await?;
    tracing::info!(user.id = %user_id, amount = event.amount, credited, "promo code credited");
    Ok(())
});

/// A friend signed up with an inviter's code: their reward waits for their first payment.
pub struct RecordReferral {
    pub pricing: Pricing,
}

handler!(RecordReferral, ReferralRecorded, |handler, conn, event| {
    let referred = Uuid::parse_str(&event.referred_id)?;
    let referrer = Uuid::parse_str(&event.referrer_id)?;
    rewards::record(conn, &handler.pricing, referred, referrer).await?;
    Ok(())
});

/// A paid storage extension evidence could not apply (the folder went away after the price was
/// taken) is refunded to the wallet in full, once per purchase.
pub struct RefundRefusedExtension;

handler!(
    RefundRefusedExtension,
    StorageExtensionRefused,
    |conn, event| {
        let purchase = Uuid::parse_str(&event.purchase_id)?;
        let owner = Uuid::parse_str(&event.owner_id)?;
        match wallet::refund_purchase(conn, owner, purchase, &event.reason).await? {
            Some((amount, refunded)) => {
                tracing::info!(purchase.id = %purchase, amount, refunded, "refused storage extension refunded");
            }
            None => {
                tracing::warn!(purchase.id = %purchase, "a refused extension without a purchase to refund");
            }
        }
        Ok(())
    }
);

/// A deleted account's grace period ended: its cards are detached at Stripe and everything
/// payments keeps for the user (customer, cards, wallet and its ledger, intents, purchases,
/// idempotency keys, their referral reward as a friend) is deleted, and their unpaid rewards as an
/// inviter lapse. Stripe keeps its own record of the charges it processed.
/// Nothing is paused at `AccountDeleted`: payments moves money only on the user's own calls,
/// which a deleted account cannot make.
pub struct PurgeOnAccountPurged {
    pub stripe: Arc<dyn Stripe>,
}

handler!(
    PurgeOnAccountPurged,
    AccountPurged,
    |handler, conn, event| {
        let user_id = Uuid::parse_str(&event.user_id)?;
        for card in payment_methods::saved_ids(conn, user_id).await? {
            if let Err(err) = handler.stripe.detach_payment_method(&card).await {
                tracing::warn!(card = %card, error = ?err, "could not detach a purged user's card");
            }
        }
        idempotency_keys::delete_for_user(conn, user_id).await?;
        rewards::purge(conn, user_id).await?;
        store::customers::delete(conn, user_id).await?;
        tracing::info!(user.id = %user_id, "purged the user's payment data");
        Ok(())
    }
);
