//! The user's Stripe customer, made by the AccountCreated event or on demand, against the real
//! PostgreSQL, RabbitMQ and the Stripe emulator (localstripe).

use evidentia_common::testing::{self, WAIT};
use evidentia_proto::payments::v1 as pb;
use payments::config::Config;
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, account_created, user_of};

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

#[tokio::test]
async fn account_created_gives_the_user_a_stripe_customer() {
    let app = TestApp::spawn().await;
    let event = account_created();
    let user_id = user_of(&event);
    assert_eq!(app.profile(user_id).await.stripe_customer_id, None);

    app.service.publish(&event, Uuid::now_v7()).await;
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
    app.service.publish(&event, message_id).await;
    app.service.publish(&event, message_id).await;
    // The same announcement under another message id (a replay) finds the customer as well.
    let replay = Uuid::now_v7();
    app.service.publish(&event, replay).await;
    app.service.wait_processed(replay).await;

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
    app.service.publish(&event, message_id).await;
    app.service.wait_processed(message_id).await;
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
    app.service.publish(&event, message_id).await;
    app.service.wait_processed(message_id).await;
    assert_eq!(
        app.profile(user_id).await.stripe_customer_id.as_deref(),
        Some(ensured.as_str())
    );
    assert_eq!(stripe_customers_of(&app.config, user_id).await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn payment_calls_without_a_caller_are_unauthenticated() {
    let app = TestApp::spawn().await;
    let status = app
        .client()
        .get_payment_profile(pb::GetPaymentProfileRequest {})
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    let status = app
        .client()
        .ensure_stripe_customer(pb::EnsureStripeCustomerRequest {
            email: "nobody@example.com".to_owned(),
            name: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_first_calls_make_one_stripe_customer() {
    // No row is locked while Stripe answers: one idempotency key per user at Stripe and the first
    // id written keep it to one customer.
    let app = TestApp::spawn().await;
    let event = account_created();
    let ids = futures::future::join_all((0..6).map(|_| app.ensure(&event))).await;
    assert!(ids.iter().all(|id| id == &ids[0]), "{ids:?}");
    assert_eq!(
        stripe_customers_of(&app.config, user_of(&event))
            .await
            .len(),
        1
    );
    app.stop().await;
}
