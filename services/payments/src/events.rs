//! Events payments reacts to: a new account gets its Stripe customer; a redeemed promo code
//! credits the wallet; a paid extension evidence could not apply is refunded to the wallet; a
//! purged account's payment data is deleted.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::{AccountCreated, PromoCodeRedeemed, StorageExtensionRefused};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    customers,
    stripe::Stripe,
    wallet::{self, EntryKind},
};

pub struct CreateCustomerOnSignUp {
    pub stripe: Arc<dyn Stripe>,
}

#[async_trait]
impl Handler<AccountCreated> for CreateCustomerOnSignUp {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let user_id = Uuid::parse_str(&event.user_id)?;
        let name = format!("{} {}", event.first_name, event.last_name);
        customers::ensure(conn, self.stripe.as_ref(), user_id, &event.email, &name).await?;
        Ok(())
    }
}

/// A promo code a user applied (referrals) credits the wallet, once per redemption.
pub struct CreditPromoCode;

#[async_trait]
impl Handler<PromoCodeRedeemed> for CreditPromoCode {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: PromoCodeRedeemed,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let user_id = Uuid::parse_str(&event.user_id)?;
        if event.amount <= 0 {
            anyhow::bail!(
                "a promo redemption without an amount: {}",
                event.redemption_id
            );
        }
        let credited = wallet::post(
            conn,
            user_id,
            EntryKind::Promo,
            event.amount,
            &format!("promo:{}", event.redemption_id),
            &format!("Promo code {}", event.code),
        )
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        tracing::info!(user.id = %user_id, amount = event.amount, credited, "promo code credited");
        Ok(())
    }
}

/// A paid storage extension evidence could not apply (the folder went away after the price was
/// taken) is refunded to the wallet in full (what came from the wallet and what the card paid),
/// once per purchase.
pub struct RefundRefusedExtension;

#[async_trait]
impl Handler<StorageExtensionRefused> for RefundRefusedExtension {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: StorageExtensionRefused,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let purchase = Uuid::parse_str(&event.purchase_id)?;
        let owner = Uuid::parse_str(&event.owner_id)?;
        let paid: Option<i64> = sqlx::query_scalar(
            "UPDATE purchases SET refunded_at = COALESCE(refunded_at, now()) \
             WHERE id = $1 AND user_id = $2 RETURNING paid_from_wallet_cents + charged_to_card_cents",
        )
        .bind(purchase)
        .bind(owner)
        .fetch_optional(&mut *conn)
        .await?;
        let Some(amount) = paid.filter(|a| *a > 0) else {
            tracing::warn!(purchase.id = %purchase, "a refused extension without a purchase to refund");
            return Ok(());
        };
        let refunded = wallet::post(
            conn,
            owner,
            EntryKind::Refund,
            amount,
            &format!("refund:{purchase}"),
            &format!("Refund: {}", event.reason),
        )
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        tracing::info!(purchase.id = %purchase, amount, refunded, "refused storage extension refunded");
        Ok(())
    }
}

/// A deleted account's grace period ended: its cards are detached at Stripe and everything
/// payments keeps for the user (customer, cards, wallet and its ledger, intents, purchases,
/// idempotency keys) is deleted. Stripe keeps its own record of the charges it processed.
/// Nothing is paused at `AccountDeleted`: payments moves money only on the user's own calls,
/// which a deleted account cannot make.
pub struct PurgeOnAccountPurged {
    pub stripe: Arc<dyn Stripe>,
}

#[async_trait]
impl Handler<evidentia_proto::events::v1::AccountPurged> for PurgeOnAccountPurged {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: evidentia_proto::events::v1::AccountPurged,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        let user_id = Uuid::parse_str(&event.user_id)?;
        let cards: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM payment_methods WHERE user_id = $1 AND status = 'saved'",
        )
        .bind(user_id)
        .fetch_all(&mut *conn)
        .await?;
        for card in cards {
            if let Err(err) = self.stripe.detach_payment_method(&card).await {
                tracing::warn!(card = %card, error = ?err, "could not detach a purged user's card");
            }
        }
        sqlx::query("DELETE FROM idempotency_keys WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM customers WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        tracing::info!(user.id = %user_id, "purged the user's payment data");
        Ok(())
    }
}
