//! Events payments reacts to: a new account gets its Stripe customer.

use std::sync::Arc;

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::AccountCreated;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{customers, stripe::Stripe};

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
