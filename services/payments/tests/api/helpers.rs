//! The payments service spawned for a test, a user's calls to it, and localstripe as the browser
//! would use it.

use evidentia_common::{
    config::Configuration as _,
    grpc::Caller,
    service::test_config,
    testing::{self, Spawned},
};
use evidentia_proto::{
    events::v1::AccountCreated,
    payments::v1::{self as pb, payments_service_client::PaymentsServiceClient},
};
use hmac::{Hmac, Mac};
use payments::{PaymentsService, config::Config};
use secrecy::ExposeSecret;
use serde_json::Value;
use sha2::Sha256;
use tonic::transport::Channel;
use uuid::Uuid;

pub struct TestApp {
    pub service: Spawned,
    pub config: Config,
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    /// Payments with its configuration changed by `change` (its pricing, say).
    pub async fn spawn_with(change: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config {
            service: test_config("payments").await,
            ..Config::from_env().unwrap()
        };
        change(&mut config);
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

    /// localstripe's REST API, as the browser's Stripe.js and the tests use it: its status and
    /// answer.
    pub async fn stripe_status(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &[(&str, &str)],
    ) -> (reqwest::StatusCode, Value) {
        let response = reqwest::Client::new()
            .request(method, format!("{}/v1/{path}", self.config.stripe_api_base))
            .basic_auth(self.config.stripe_secret_key.expose_secret(), Some(""))
            .form(form)
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// localstripe's REST API, answering a success.
    pub async fn stripe(
        &self,
        method: reqwest::Method,
        path: &str,
        form: &[(&str, &str)],
    ) -> Value {
        let (status, body) = self.stripe_status(method, path, form).await;
        assert!(status.is_success(), "{path}: {status} {body}");
        body
    }

    /// Steps 3 to 6 of the add-card flow (spec §4): a customer, a card made at Stripe,
    /// registered, set up and confirmed by the browser. Answers the registration and whether the
    /// browser's confirmation succeeded.
    pub async fn add_card(&self, user: &AccountCreated, number: &str) -> (pb::PaymentMethod, bool) {
        let name = format!("{} {}", user.first_name, user.last_name);
        testing::add_card(
            &self.service.channel,
            &as_user(user_of(user)),
            (&user.email, &name),
            number,
        )
        .await
    }

    /// The user's saved cards.
    pub async fn cards(&self, user: &AccountCreated) -> Vec<pb::PaymentMethod> {
        self.client()
            .list_payment_methods(as_user(user_of(user)).request(pb::ListPaymentMethodsRequest {}))
            .await
            .unwrap()
            .into_inner()
            .payment_methods
    }

    /// The wallet's balance (reading it reconciles it with Stripe).
    pub async fn balance(&self, user: &AccountCreated) -> i64 {
        self.client()
            .get_wallet(as_user(user_of(user)).request(pb::GetWalletRequest {}))
            .await
            .unwrap()
            .into_inner()
            .balance
    }

    pub async fn stored_account(&self, user: &AccountCreated) -> pb::StoredAccount {
        self.client()
            .get_stored_account(as_user(user_of(user)).request(pb::GetStoredAccountRequest {}))
            .await
            .unwrap()
            .into_inner()
    }

    /// A PaymentIntent of `action` for `amount` from `card`, confirmed at Stripe as the browser
    /// would; answers its id.
    pub async fn confirmed_intent(
        &self,
        user: &AccountCreated,
        card: &str,
        action: i32,
        amount: i64,
    ) -> String {
        let id = self
            .client()
            .create_payment_intent(
                as_user(user_of(user)).request(pb::CreatePaymentIntentRequest {
                    payment_method_id: card.to_owned(),
                    metadata: Some(pb::PaymentIntentMetadata { action, amount }),
                    idempotency_key: Uuid::new_v4().to_string(),
                }),
            )
            .await
            .unwrap()
            .into_inner()
            .payment_intent_id;
        let confirmed = self
            .stripe(
                reqwest::Method::POST,
                &format!("payment_intents/{id}/confirm"),
                &[],
            )
            .await;
        assert_eq!(confirmed["status"], "succeeded");
        id
    }

    /// A webhook delivery as Stripe signs it (spec: processed once by event id).
    pub async fn deliver(
        &self,
        event_id: &str,
        kind: &str,
        object: Value,
    ) -> Result<(), tonic::Status> {
        let payload = serde_json::json!({
            "id": event_id, "object": "event", "type": kind, "data": { "object": object }
        })
        .to_string();
        let t = chrono::Utc::now().timestamp();
        let mut mac = Hmac::<Sha256>::new_from_slice(
            self.config.stripe_webhook_secret.expose_secret().as_bytes(),
        )
        .unwrap();
        mac.update(format!("{t}.{payload}").as_bytes());
        let signature = format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()));
        self.client()
            .handle_stripe_webhook(pb::StripeWebhookRequest {
                payload: payload.into_bytes(),
                signature,
            })
            .await
            .map(drop)
    }

    /// Stripe's `payment_intent.succeeded` for `intent`, delivered under a new event id.
    pub async fn credit_by_webhook(&self, intent: &str) {
        let event = format!("evt_{}", Uuid::new_v4().simple());
        self.deliver(
            &event,
            "payment_intent.succeeded",
            serde_json::json!({ "id": intent, "object": "payment_intent" }),
        )
        .await
        .unwrap();
    }

    /// The add-card flow as the browser walks it ([`TestApp::add_card`]); the saved list answers
    /// the card. Answers the card's id.
    pub async fn saved_card(&self, user: &AccountCreated, number: &str) -> String {
        let (registered, confirmed) = self.add_card(user, number).await;
        assert!(confirmed, "{registered:?}");
        let saved = self.cards(user).await;
        assert!(saved.iter().any(|c| c.id == registered.id), "{saved:?}");
        registered.id
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

/// A 3-month storage extension of a 300 MB folder, paid from the `wallet` or by `card`.
pub fn extension(folder_id: Uuid, pay_with: &str, key: &str) -> pb::PayRequest {
    pb::PayRequest {
        kind: "storage_extension".to_owned(),
        folder: Some(pb::FolderSnapshot {
            folder_id: folder_id.to_string(),
            used_bytes: 300_000_000,
            storage_expires_at: None,
        }),
        months: 3,
        pay_with: pay_with.to_owned(),
        idempotency_key: key.to_owned(),
        share: None,
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
