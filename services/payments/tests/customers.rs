//! The user's Stripe customer, made by the AccountCreated event or on demand, against the real
//! PostgreSQL, RabbitMQ and the Stripe emulator (localstripe).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

use std::time::Duration;

use evidentia_common::{
    amqp,
    config::AmqpConfig,
    grpc::Caller,
    service::{Service, test_config},
    testing,
};
use evidentia_proto::{
    Event,
    events::v1::AccountCreated,
    payments::v1::{self as pb, payments_service_client::PaymentsServiceClient},
};
use lapin::{Channel, Connection, options::BasicPublishOptions};
use payments::{PaymentsService, config::Config};
use prost::Message;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tonic::Code;
use uuid::Uuid;

const WAIT: Duration = Duration::from_secs(15);

struct TestApp {
    client: PaymentsServiceClient<tonic::transport::Channel>,
    config: Config,
    _connection: Connection,
    publisher: Channel,
    shutdown: CancellationToken,
    server: JoinHandle<anyhow::Result<()>>,
}

/// A new user as accounts announces it.
fn account_created() -> AccountCreated {
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

fn user_of(event: &AccountCreated) -> Uuid {
    Uuid::parse_str(&event.user_id).unwrap()
}

fn as_user(user_id: Uuid) -> Caller {
    Caller {
        user_id: Some(user_id),
        ..Caller::default()
    }
}

/// Every customer localstripe holds for `user_id` (by the metadata payments sets).
async fn stripe_customers_of(config: &Config, user_id: Uuid) -> Vec<serde_json::Value> {
    let http = reqwest::Client::new();
    let mut found = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut query = vec![("limit", "100".to_owned())];
        if let Some(after) = &after {
            query.push(("starting_after", after.clone()));
        }
        let page: serde_json::Value = http
            .get(format!("{}/v1/customers", config.stripe_api_base))
            .basic_auth(
                secrecy::ExposeSecret::expose_secret(&config.stripe_secret_key),
                Some(""),
            )
            .query(&query)
            .send()
            .await
            .unwrap()
            .error_for_status()
            .unwrap()
            .json()
            .await
            .unwrap();
        let data = page["data"].as_array().cloned().unwrap_or_default();
        after = data
            .last()
            .and_then(|c| c["id"].as_str())
            .map(str::to_owned);
        found.extend(
            data.into_iter()
                .filter(|c| c["metadata"]["user_id"] == user_id.to_string().as_str()),
        );
        if page["has_more"] != true || after.is_none() {
            return found;
        }
    }
}

async fn stripe_customer(config: &Config, id: &str) -> serde_json::Value {
    reqwest::Client::new()
        .get(format!("{}/v1/customers/{id}", config.stripe_api_base))
        .basic_auth(
            secrecy::ExposeSecret::expose_secret(&config.stripe_secret_key),
            Some(""),
        )
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap()
        .json()
        .await
        .unwrap()
}

impl TestApp {
    async fn spawn() -> Self {
        let config = Config {
            service: test_config("payments").await,
            ..Config::from_env().unwrap()
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let server = tokio::spawn(<PaymentsService as Service>::run(
            config.clone(),
            listener,
            shutdown.clone(),
        ));
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .unwrap()
            .timeout(WAIT)
            .connect_lazy();
        let (connection, publisher) = amqp::open_channel(&config.service.amqp, "test-publisher")
            .await
            .unwrap();
        let mut app = Self {
            client: PaymentsServiceClient::new(channel),
            config,
            _connection: connection,
            publisher,
            shutdown,
            server,
        };
        // The listener is bound before the migrations run; the first call waits for the server.
        let call = app
            .client
            .get_payment_profile(as_user(Uuid::now_v7()).request(pb::GetPaymentProfileRequest {}));
        tokio::select! {
            result = call => { result.expect("the payments service answers"); }
            exit = &mut app.server => panic!("the payments service stopped: {exit:?}"),
        }
        app
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.server.await.unwrap().unwrap();
    }

    fn amqp(&self) -> &AmqpConfig {
        &self.config.service.amqp
    }

    /// Publishes the event as the outbox relay of accounts does, once the consumer's queue is
    /// bound (the service declares it when it starts).
    async fn publish(&self, event: &AccountCreated, message_id: Uuid) {
        let payload = event.encode_to_vec();
        testing::eventually("the payments queue to be bound", WAIT, || async {
            let confirmation = self
                .publisher
                .basic_publish(
                    self.amqp().exchange.as_str().into(),
                    AccountCreated::ROUTING_KEY.into(),
                    BasicPublishOptions {
                        mandatory: true,
                        ..BasicPublishOptions::default()
                    },
                    &payload,
                    amqp::properties(
                        &message_id.to_string(),
                        AccountCreated::TYPE_NAME,
                        &Default::default(),
                        0,
                    ),
                )
                .await
                .unwrap()
                .await
                .unwrap();
            assert!(confirmation.is_ack());
            confirmation.take_message().is_none().then_some(())
        })
        .await;
    }

    async fn processed(&self, message_id: Uuid) -> bool {
        let mut conn = testing::connect(&self.config.service.database_url).await;
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM processed_events WHERE event_id = $1)")
            .bind(message_id)
            .fetch_one(&mut conn)
            .await
            .unwrap()
    }

    async fn wait_processed(&self, message_id: Uuid) {
        testing::eventually("the event to be processed", WAIT, || async {
            self.processed(message_id).await.then_some(())
        })
        .await;
    }

    async fn profile(&self, user_id: Uuid) -> pb::PaymentProfile {
        self.client
            .clone()
            .get_payment_profile(as_user(user_id).request(pb::GetPaymentProfileRequest {}))
            .await
            .unwrap()
            .into_inner()
    }

    async fn ensure(&self, event: &AccountCreated) -> String {
        self.client
            .clone()
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
}

#[tokio::test]
async fn account_created_gives_the_user_a_stripe_customer() {
    let app = TestApp::spawn().await;
    let event = account_created();
    let user_id = user_of(&event);
    assert_eq!(app.profile(user_id).await.stripe_customer_id, None);

    app.publish(&event, Uuid::now_v7()).await;
    let customer_id = testing::eventually("the user's Stripe customer", WAIT, || async {
        app.profile(user_id).await.stripe_customer_id
    })
    .await;
    assert!(customer_id.starts_with("cus_"), "{customer_id}");

    let customer = stripe_customer(&app.config, &customer_id).await;
    assert_eq!(customer["email"], event.email.as_str());
    assert_eq!(customer["name"], "Ann Lee");
    assert_eq!(customer["metadata"]["user_id"], event.user_id.as_str());
    assert_eq!(stripe_customers_of(&app.config, user_id).await.len(), 1);

    let profile = app.profile(user_id).await;
    assert_eq!(profile.default_payment_method, None);
    assert_eq!(profile.credit_card_wallet_balance, 0);
    assert_eq!(profile.auto_topping_up_amount, 0);
    assert!(!profile.one_time_benefit_applied);
    app.stop().await;
}

#[tokio::test]
async fn the_same_event_delivered_twice_makes_one_customer() {
    let app = TestApp::spawn().await;
    let event = account_created();
    let user_id = user_of(&event);
    let message_id = Uuid::now_v7();
    app.publish(&event, message_id).await;
    app.publish(&event, message_id).await;
    // The same announcement under another message id (a replay) finds the customer as well.
    let replay = Uuid::now_v7();
    app.publish(&event, replay).await;
    app.wait_processed(replay).await;

    let customers = stripe_customers_of(&app.config, user_id).await;
    assert_eq!(customers.len(), 1, "{customers:#?}");
    assert_eq!(
        app.profile(user_id).await.stripe_customer_id.as_deref(),
        customers[0]["id"].as_str()
    );
    app.stop().await;
}

#[tokio::test]
async fn ensure_stripe_customer_returns_the_customer_the_event_made_every_time() {
    let app = TestApp::spawn().await;
    let event = account_created();
    let user_id = user_of(&event);
    let message_id = Uuid::now_v7();
    app.publish(&event, message_id).await;
    app.wait_processed(message_id).await;
    let made = app
        .profile(user_id)
        .await
        .stripe_customer_id
        .expect("the event made a customer");

    assert_eq!(app.ensure(&event).await, made);
    assert_eq!(app.ensure(&event).await, made);
    assert_eq!(stripe_customers_of(&app.config, user_id).await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn ensure_stripe_customer_before_the_event_creates_the_customer_the_event_then_keeps() {
    let app = TestApp::spawn().await;
    let event = account_created();
    let user_id = user_of(&event);

    let ensured = app.ensure(&event).await;
    assert!(ensured.starts_with("cus_"), "{ensured}");
    assert_eq!(
        app.profile(user_id).await.stripe_customer_id.as_deref(),
        Some(ensured.as_str())
    );
    let customer = stripe_customer(&app.config, &ensured).await;
    assert_eq!(customer["email"], event.email.as_str());

    let message_id = Uuid::now_v7();
    app.publish(&event, message_id).await;
    app.wait_processed(message_id).await;
    assert_eq!(
        app.profile(user_id).await.stripe_customer_id.as_deref(),
        Some(ensured.as_str())
    );
    assert_eq!(stripe_customers_of(&app.config, user_id).await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn payment_calls_without_a_caller_are_unauthenticated() {
    let mut app = TestApp::spawn().await;
    let status = app
        .client
        .get_payment_profile(pb::GetPaymentProfileRequest {})
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    let status = app
        .client
        .ensure_stripe_customer(pb::EnsureStripeCustomerRequest {
            email: "nobody@example.com".to_owned(),
            name: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    app.stop().await;
}
