//! The payments service spawned for a test, a user's calls to it, and localstripe as the browser
//! would use it.

use evidentia_common::{
    config::Configuration as _, grpc::Caller, service::test_config, testing::Spawned,
};
use evidentia_proto::{
    events::v1::AccountCreated,
    payments::v1::{self as pb, payments_service_client::PaymentsServiceClient},
};
use payments::{PaymentsService, config::Config};
use secrecy::ExposeSecret;
use serde_json::Value;
use tonic::transport::Channel;
use uuid::Uuid;

pub struct TestApp {
    pub service: Spawned,
    pub config: Config,
}

impl TestApp {
    pub async fn spawn() -> Self {
        let config = Config {
            service: test_config("payments").await,
            ..Config::from_env().unwrap()
        };
        Self {
            service: Spawned::start::<PaymentsService>(config.clone()).await,
            config,
        }
    }

    pub fn client(&self) -> PaymentsServiceClient<Channel> {
        PaymentsServiceClient::new(self.service.channel.clone())
    }

    pub async fn stop(self) {
        self.service.stop().await;
    }

    pub async fn profile(&self, user_id: Uuid) -> pb::PaymentProfile {
        self.client()
            .get_payment_profile(as_user(user_id).request(pb::GetPaymentProfileRequest {}))
            .await
            .unwrap()
            .into_inner()
    }

    pub async fn ensure(&self, event: &AccountCreated) -> String {
        self.client()
            .ensure_stripe_customer(as_user(user_of(event)).request(
                pb::EnsureStripeCustomerRequest {
                    email: event.email.clone(),
                    name: format!("{} {}", event.first_name, event.last_name),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .stripe_customer_id
    }

    /// localstripe's REST API, as the browser's Stripe.js and the tests use it.
    pub async fn stripe(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &[(&str, &str)],
    ) -> Value {
        let response = reqwest::Client::new()
            .request(method, format!("{}/v1/{path}", self.config.stripe_api_base))
            .basic_auth(self.config.stripe_secret_key.expose_secret(), Some(""))
            .form(form)
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "{path}: {}",
            response.status()
        );
        response.json().await.unwrap()
    }

    /// The add-card flow as the browser walks it: a customer, a card made at Stripe, registered,
    /// set up and confirmed; the saved list answers it. Answers the card's id.
    pub async fn saved_card(&self, user: &AccountCreated, number: &str) -> String {
        let customer = self.ensure(user).await;
        let caller = as_user(user_of(user));
        let pm = self
            .stripe(
                reqwest::Method::POST,
                "payment_methods",
                &[
                    ("type", "card"),
                    ("card[number]", number),
                    ("card[exp_month]", "12"),
                    ("card[exp_year]", "2030"),
                    ("card[cvc]", "123"),
                ],
            )
            .await["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let mut client = self.client();
        client
            .register_payment_method(caller.request(pb::RegisterPaymentMethodRequest {
                payment_method_id: pm.clone(),
            }))
            .await
            .unwrap();
        let secret = client
            .create_setup_intent(caller.request(pb::CreateSetupIntentRequest {
                stripe_customer_id: customer,
            }))
            .await
            .unwrap()
            .into_inner()
            .client_secret;
        let seti = secret.split("_secret_").next().unwrap();
        self.stripe(
            reqwest::Method::POST,
            &format!("setup_intents/{seti}/confirm"),
            &[("payment_method", pm.as_str())],
        )
        .await;
        let saved = client
            .list_payment_methods(caller.request(pb::ListPaymentMethodsRequest {}))
            .await
            .unwrap()
            .into_inner();
        assert!(
            saved.payment_methods.iter().any(|c| c.id == pm),
            "{saved:?}"
        );
        pm
    }

    /// A wallet created with `amount` from `card`, its PaymentIntent confirmed as the browser
    /// would, and credited.
    pub async fn wallet(&self, user: &AccountCreated, card: &str, amount: i64) -> i64 {
        let caller = as_user(user_of(user));
        let mut client = self.client();
        let intent = client
            .create_payment_intent(caller.request(pb::CreatePaymentIntentRequest {
                payment_method_id: card.to_owned(),
                metadata: Some(pb::PaymentIntentMetadata { action: 2, amount }),
                idempotency_key: Uuid::new_v4().to_string(),
            }))
            .await
            .unwrap()
            .into_inner();
        self.stripe(
            reqwest::Method::POST,
            &format!("payment_intents/{}/confirm", intent.payment_intent_id),
            &[],
        )
        .await;
        client
            .get_stored_account(caller.request(pb::GetStoredAccountRequest {}))
            .await
            .unwrap()
            .into_inner()
            .balance
    }
}

/// A new user as accounts announces it.
pub fn account_created() -> AccountCreated {
    let user_id = Uuid::now_v7();
    AccountCreated {
        user_id: user_id.to_string(),
        username: format!("u{}", &user_id.simple().to_string()[20..]),
        email: format!("{}@example.com", user_id.simple()),
        first_name: "Ann".to_owned(),
        last_name: "Lee".to_owned(),
        account_type: "individual".to_owned(),
        ..AccountCreated::default()
    }
}

pub fn user_of(event: &AccountCreated) -> Uuid {
    Uuid::parse_str(&event.user_id).unwrap()
}

pub fn as_user(user_id: Uuid) -> Caller {
    Caller {
        user_id: Some(user_id),
        ..Caller::default()
    }
}
