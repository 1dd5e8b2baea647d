//! Stripe, behind one trait with one real implementation (async-stripe). Locally the same client
//! talks to localstripe; production points it at Stripe by configuration alone.

use async_trait::async_trait;
use secrecy::ExposeSecret;
use stripe::{Client, ClientBuilder, RequestStrategy, StripeRequest};
use stripe_core::customer::CreateCustomer;
use uuid::Uuid;

use crate::config::Config;

#[async_trait]
pub trait Stripe: Send + Sync + 'static {
    /// Creates the customer of `user_id`; the idempotency key makes a retry return the same one.
    async fn create_customer(
        &self,
        user_id: Uuid,
        email: &str,
        name: &str,
    ) -> anyhow::Result<String>;
}

pub struct StripeApi {
    client: Client,
}

impl StripeApi {
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let mut builder = ClientBuilder::new(config.stripe_secret_key.expose_secret());
        if !config.stripe_api_base.is_empty() {
            builder = builder.url(config.stripe_api_base.clone());
        }
        Ok(Self {
            client: builder.build()?,
        })
    }
}

#[async_trait]
impl Stripe for StripeApi {
    #[tracing::instrument(skip_all, fields(user.id = %user_id))]
    async fn create_customer(
        &self,
        user_id: Uuid,
        email: &str,
        name: &str,
    ) -> anyhow::Result<String> {
        let key = stripe::IdempotencyKey::new(format!("customer-{user_id}"))
            .map_err(|e| anyhow::anyhow!("idempotency key: {e:?}"))?;
        let mut request = CreateCustomer::new()
            .email(email)
            .metadata([("user_id".to_owned(), user_id.to_string())]);
        if !name.trim().is_empty() {
            request = request.name(name.trim());
        }
        let customer = request
            .customize()
            .request_strategy(RequestStrategy::Idempotent(key))
            .send(&self.client)
            .await?;
        Ok(customer.id.to_string())
    }
}
