//! The gRPC surface of payments: converts proto messages to domain values and back, nothing else.

use std::sync::Arc;

use chrono::Utc;
use evidentia_common::grpc::user_of;
use evidentia_proto::payments::v1::{
    self as pb, payments_service_server::PaymentsService as PaymentsRpc,
};
use secrecy::{ExposeSecret, SecretString};
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    cards::{self, Card},
    customers,
    domain::{CustomerId, PaymentMethodId},
    error::PaymentsError,
    movements,
    pricing::Pricing,
    purchases::{self, stored_account_pb},
    stripe::Stripe,
    wallet, webhook,
};

pub struct PaymentsApi {
    pub pool: PgPool,
    pub stripe: Arc<dyn Stripe>,
    pub pricing: Pricing,
    pub webhook_secret: SecretString,
}

type Reply<T> = Result<Response<T>, Status>;

fn card_pb(card: Card) -> pb::PaymentMethod {
    pb::PaymentMethod {
        id: card.id,
        brand: card.brand,
        last4: card.last4,
        fingerprint: card.fingerprint,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        default_method: card.default_method,
        wallet: card.wallet,
    }
}

fn cards_pb(cards: Vec<Card>) -> pb::PaymentMethods {
    pb::PaymentMethods {
        payment_methods: cards.into_iter().map(card_pb).collect(),
    }
}

/// Spec §5 "Billing first and last name": required, 2 to 50 characters.
fn billing_name(field: &str, value: &str) -> Option<evidentia_common::errors::FieldError> {
    let len = value.trim().chars().count();
    let message = if len == 0 {
        "This field is required"
    } else if len < 2 {
        "Minimum 2 characters"
    } else if len > 50 {
        "Maximum 50 characters"
    } else {
        return None;
    };
    Some(evidentia_common::errors::FieldError::new(field, message))
}

#[tonic::async_trait]
impl PaymentsRpc for PaymentsApi {
    async fn get_payment_profile(
        &self,
        request: Request<pb::GetPaymentProfileRequest>,
    ) -> Reply<pb::PaymentProfile> {
        let user_id = user_of(&request)?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        let profile = customers::profile(&mut conn, user_id).await?;
        Ok(Response::new(pb::PaymentProfile {
            stripe_customer_id: profile.stripe_customer_id,
            default_payment_method: profile.default_payment_method,
            auto_topping_up_amount: profile.auto_topping_up_amount,
            credit_card_wallet_balance: profile.credit_card_wallet_balance,
            one_time_benefit_applied: profile.one_time_benefit_applied,
        }))
    }

    async fn ensure_stripe_customer(
        &self,
        request: Request<pb::EnsureStripeCustomerRequest>,
    ) -> Reply<pb::EnsureStripeCustomerResponse> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let mut tx = self.pool.begin().await.map_err(PaymentsError::from)?;
        let id = customers::ensure(
            &mut tx,
            self.stripe.as_ref(),
            user_id,
            &req.email,
            &req.name,
        )
        .await?;
        tx.commit().await.map_err(PaymentsError::from)?;
        Ok(Response::new(pb::EnsureStripeCustomerResponse {
            stripe_customer_id: id,
        }))
    }

    async fn update_customer_name(
        &self,
        request: Request<pb::UpdateCustomerNameRequest>,
    ) -> Reply<pb::CustomerName> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let errors: Vec<_> = [
            billing_name("first_name", &req.first_name),
            billing_name("last_name", &req.last_name),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !errors.is_empty() {
            return Err(PaymentsError::Invalid(errors).into());
        }
        let (first, last) = (req.first_name.trim(), req.last_name.trim());
        customers::update_name(
            &self.pool,
            self.stripe.as_ref(),
            user_id,
            &req.email,
            first,
            last,
        )
        .await?;
        Ok(Response::new(pb::CustomerName {
            first_name: first.to_owned(),
            last_name: last.to_owned(),
        }))
    }

    async fn register_payment_method(
        &self,
        request: Request<pb::RegisterPaymentMethodRequest>,
    ) -> Reply<pb::PaymentMethod> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let id = PaymentMethodId::parse("payment_method_id", &req.payment_method_id)
            .map_err(PaymentsError::from)?;
        let card = cards::register(&self.pool, self.stripe.as_ref(), user_id, &id).await?;
        Ok(Response::new(card_pb(card)))
    }

    async fn create_setup_intent(
        &self,
        request: Request<pb::CreateSetupIntentRequest>,
    ) -> Reply<pb::SetupIntent> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let customer = CustomerId::parse("stripe_customer_id", &req.stripe_customer_id)
            .map_err(PaymentsError::from)?;
        let client_secret =
            cards::create_setup_intent(&self.pool, self.stripe.as_ref(), user_id, &customer)
                .await?;
        Ok(Response::new(pb::SetupIntent { client_secret }))
    }

    async fn list_payment_methods(
        &self,
        request: Request<pb::ListPaymentMethodsRequest>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        cards::reconcile(&self.pool, self.stripe.as_ref(), user_id).await?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        Ok(Response::new(cards_pb(
            cards::list(&mut conn, user_id).await?,
        )))
    }

    async fn get_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethod> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        // A path id that cannot be a card id names no card of the user's.
        let id = PaymentMethodId::parse("id", &req.payment_method_id)
            .map_err(|_| PaymentsError::NotFound)?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        Ok(Response::new(card_pb(
            cards::get(&mut conn, user_id, &id).await?,
        )))
    }

    async fn set_default_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let id = PaymentMethodId::parse("payment_method_id", &req.payment_method_id)
            .map_err(PaymentsError::from)?;
        let cards = cards::set_default(&self.pool, self.stripe.as_ref(), user_id, &id).await?;
        Ok(Response::new(cards_pb(cards)))
    }

    async fn remove_payment_method(
        &self,
        request: Request<pb::PaymentMethodRef>,
    ) -> Reply<pb::PaymentMethods> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let id = PaymentMethodId::parse("payment_method_id", &req.payment_method_id)
            .map_err(PaymentsError::from)?;
        let cards = cards::remove(&self.pool, self.stripe.as_ref(), user_id, &id).await?;
        Ok(Response::new(cards_pb(cards)))
    }

    async fn get_stored_account(
        &self,
        request: Request<pb::GetStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        purchases::reconcile_intents(&self.pool, self.stripe.as_ref(), user_id).await?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        Ok(Response::new(stored_account_pb(
            &wallet::stored_account(&mut conn, user_id).await?,
        )))
    }

    async fn update_stored_account(
        &self,
        request: Request<pb::UpdateStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        let req = request.into_inner();
        let id = PaymentMethodId::parse("payment_method_id", &req.payment_method_id)
            .map_err(PaymentsError::from)?;
        let account = wallet::update(
            &self.pool,
            &self.pricing,
            user_id,
            req.auto_topping_up_amount,
            &id,
        )
        .await?;
        Ok(Response::new(stored_account_pb(&account)))
    }

    async fn delete_stored_account(
        &self,
        request: Request<pb::DeleteStoredAccountRequest>,
    ) -> Reply<pb::StoredAccount> {
        let user_id = user_of(&request)?;
        Ok(Response::new(stored_account_pb(
            &wallet::close(&self.pool, user_id).await?,
        )))
    }

    async fn get_wallet(&self, request: Request<pb::GetWalletRequest>) -> Reply<pb::Wallet> {
        let user_id = user_of(&request)?;
        purchases::reconcile_intents(&self.pool, self.stripe.as_ref(), user_id).await?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        let account = wallet::stored_account(&mut conn, user_id).await?;
        Ok(Response::new(pb::Wallet {
            balance: account.balance,
            currency: "usd".to_owned(),
        }))
    }

    async fn create_payment_intent(
        &self,
        request: Request<pb::CreatePaymentIntentRequest>,
    ) -> Reply<pb::PaymentIntent> {
        let user_id = user_of(&request)?;
        let answer = purchases::create_payment_intent(
            &self.pool,
            self.stripe.as_ref(),
            &self.pricing,
            user_id,
            request.into_inner(),
        )
        .await?;
        Ok(Response::new(answer))
    }

    async fn pay(&self, request: Request<pb::PayRequest>) -> Reply<pb::PayResponse> {
        let user_id = user_of(&request)?;
        let answer = purchases::pay(
            &self.pool,
            self.stripe.as_ref(),
            &self.pricing,
            user_id,
            request.into_inner(),
        )
        .await?;
        Ok(Response::new(answer))
    }

    async fn list_transactions(
        &self,
        request: Request<pb::ListTransactionsRequest>,
    ) -> Reply<pb::Transactions> {
        let user_id = user_of(&request)?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        Ok(Response::new(pb::Transactions {
            transactions: purchases::transactions(&mut conn, user_id).await?,
            movements: movements::list(&mut conn, user_id).await?,
        }))
    }

    async fn get_transaction(
        &self,
        request: Request<pb::GetTransactionRequest>,
    ) -> Reply<pb::Transaction> {
        let user_id = user_of(&request)?;
        let id = Uuid::parse_str(&request.get_ref().id).map_err(|_| PaymentsError::NotFound)?;
        let mut conn = self.pool.acquire().await.map_err(PaymentsError::from)?;
        Ok(Response::new(
            purchases::transaction(&mut conn, user_id, id).await?,
        ))
    }

    async fn get_pricing(&self, _request: Request<pb::GetPricingRequest>) -> Reply<pb::Pricing> {
        let p = &self.pricing;
        Ok(Response::new(pb::Pricing {
            storage_month_price: p.storage_month_price,
            storage_included_gb: p.storage_included_gb,
            storage_extra_gb_month_price: p.storage_extra_gb_month_price,
            storage_months_options: p.storage_months_options.clone(),
            sharing_authenticated: p.sharing_authenticated,
            sharing_unauthenticated: p.sharing_unauthenticated,
            service_fee_bps: p.service_fee_bps,
            wallet_service_fee_saving_bps: p.wallet_service_fee_saving_bps,
            card_processing_bps: p.card_processing_bps,
            card_processing_fixed: p.card_processing_fixed,
            first_authorisation: p.first_authorisation,
            auto_top_up_threshold: p.auto_top_up_threshold,
            top_up_min: p.top_up_min,
            top_up_max: p.top_up_max,
            top_up_presets: p.top_up_presets.clone(),
        }))
    }

    async fn calculate_storage_price(
        &self,
        request: Request<pb::CalculateStoragePriceRequest>,
    ) -> Reply<pb::StoragePrice> {
        Ok(Response::new(purchases::storage_price(
            &self.pricing,
            request.get_ref(),
            Utc::now(),
        )?))
    }

    async fn calculate_sharing_price(
        &self,
        request: Request<pb::CalculateSharingPriceRequest>,
    ) -> Reply<pb::Breakdown> {
        Ok(Response::new(purchases::sharing_price(
            request.get_ref(),
            &self.pricing,
        )?))
    }

    async fn handle_stripe_webhook(
        &self,
        request: Request<pb::StripeWebhookRequest>,
    ) -> Reply<pb::StripeWebhookResponse> {
        let req = request.into_inner();
        webhook::handle(
            &self.pool,
            self.webhook_secret.expose_secret(),
            &req.payload,
            &req.signature,
        )
        .await?;
        Ok(Response::new(pb::StripeWebhookResponse {}))
    }
}
