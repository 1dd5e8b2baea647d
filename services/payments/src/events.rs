//! Events payments reacts to: a new account gets its Stripe customer; a redeemed promo code
//! credits the wallet.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::{AccountCreated, PromoCodeRedeemed};
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
