//! Payments through the REST API: the routes' shapes and statuses, and what payments does with
//! other services: a storage extension paid that moves evidence's storage date once, one that
//! evidence refuses refunded, and a promo code redeemed at referrals credited to the wallet.
//! Payments' own behaviour is tested next to it (services/payments/tests/api).

use std::time::Duration;

use crate::support::{SignedUp, Stack};
use evidentia_common::testing;
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::{OK_CARD, stripe};

struct User<'a> {
    stack: &'a Stack,
    me: SignedUp,
}

impl<'a> User<'a> {
    async fn new(stack: &'a Stack) -> Self {
        Self {
            stack,
            me: stack.sign_up().await,
        }
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.stack.get_auth(path, &self.me.access).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.stack.post_auth(path, &self.me.access, body).await
    }

    async fn post_keyed(&self, path: &str, key: &str, body: Value) -> (u16, Value) {
        let response = self
            .stack
            .http
            .post(self.stack.url(path))
            .bearer_auth(&self.me.access)
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn customer(&self) -> String {
        let (status, body) = self
            .post("payments/stripe-customer/create/", json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        body["stripe_customer_id"].as_str().unwrap().to_owned()
    }

    /// Steps 3 to 6 of the add-card flow (spec §4); answers the registration and whether the
    /// browser's confirmation succeeded.
    async fn add_card(&self, number: &str) -> (Value, bool) {
        crate::support::add_card(self.stack, &self.me.access, number).await
    }

    async fn cards(&self) -> Vec<Value> {
        let (status, body) = self.get("payments/payment-methods/get/").await;
        assert_eq!(status, 200, "{body}");
        body["payment_methods"].as_array().unwrap().clone()
    }

    async fn balance(&self) -> i64 {
        let (status, body) = self.get("payments/evidentia-wallet/get/").await;
        assert_eq!(status, 200, "{body}");
        body["balance"].as_i64().unwrap()
    }

    async fn stored_account(&self) -> Value {
        let (status, body) = self.get("payments/stored-account/get/").await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// A PaymentIntent of `action` confirmed at Stripe as the browser would; answers its id.
    async fn confirmed_intent(&self, card: &str, action: i32, amount: i64) -> String {
        let key = uuid::Uuid::new_v4().to_string();
        let (status, intent) = self
            .post_keyed(
                "payments/payment-intent/create/",
                &key,
                json!({ "payment_method_id": card, "metadata": { "action": action, "amount": amount } }),
            )
            .await;
        assert_eq!(status, 200, "{intent}");
        let id = intent["payment_intent_id"].as_str().unwrap().to_owned();
        let (status, confirmed) =
            stripe(Method::POST, &format!("payment_intents/{id}/confirm"), &[]).await;
        assert_eq!(status, 200, "{confirmed}");
        assert_eq!(confirmed["status"], "succeeded");
        id
    }

    async fn folder(&self) -> Value {
        let (status, folder) = self
            .post(
                "evidence/folders/create/",
                json!({ "name": "Flat inventory" }),
            )
            .await;
        assert_eq!(status, 201, "{folder}");
        folder
    }
}

/// A webhook delivery as Stripe signs it (spec: processed once by event id).
async fn deliver(stack: &Stack, event_id: &str, kind: &str, object: Value) -> u16 {
    let payload =
        json!({ "id": event_id, "object": "event", "type": kind, "data": { "object": object } })
            .to_string();
    let t = chrono::Utc::now().timestamp();
    let mut mac =
        Hmac::<Sha256>::new_from_slice(payments::config::LOCAL_WEBHOOK_SECRET.as_bytes()).unwrap();
    mac.update(format!("{t}.{payload}").as_bytes());
    let signature = format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()));
    stack
        .http
        .post(stack.url("payments/stripe/webhook/"))
        .header("Stripe-Signature", signature)
        .header("content-type", "application/json")
        .body(payload)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn credit_by_webhook(stack: &Stack, intent: &str) {
    let event = format!("evt_{}", uuid::Uuid::new_v4().simple());
    let status = deliver(
        stack,
        &event,
        "payment_intent.succeeded",
        json!({ "id": intent, "object": "payment_intent" }),
    )
    .await;
    assert_eq!(status, 200);
}

/// The payments routes over the payments service: cards and the wallet in their REST shapes, the
/// Idempotency-Key header, the webhook's signature header, field errors, another user's card, the
/// body's own errors, and the browser's Stripe.js configuration. The behaviour behind them is
/// payments', tested next to it (services/payments/tests/api).
#[tokio::test]
async fn payments_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let (registered, confirmed) = user.add_card(OK_CARD).await;
    assert!(confirmed);
    let cards = user.cards().await;
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0]["brand"], "visa");
    assert_eq!(cards[0]["last4"], "4242");
    assert_eq!(cards[0]["default_method"], true);
    assert_eq!(cards[0]["wallet"], false);
    assert_eq!(cards[0]["fingerprint"], registered["fingerprint"]);
    assert_eq!(user.balance().await, 50);
    let card = cards[0]["id"].as_str().unwrap().to_owned();

    // Another user's card, and an id off Stripe's shape.
    let other = User::new(&stack).await;
    let (status, _) = other
        .get(&format!("payments/payment-method/{card}/retrieve/"))
        .await;
    assert_eq!(status, 404);
    let (status, body) = user
        .post(
            "payments/payment-method/set-default/",
            json!({ "payment_method_id": "../x" }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "payment_method_id");

    // A create without an Idempotency-Key is refused; with one it answers the intent.
    let body = json!({ "payment_method_id": card, "metadata": { "action": 2, "amount": 2500 } });
    let (status, _) = user
        .post("payments/payment-intent/create/", body.clone())
        .await;
    assert_eq!(status, 400, "an Idempotency-Key is required");
    let (status, intent) = user
        .post_keyed("payments/payment-intent/create/", "wallet-1", body)
        .await;
    assert_eq!(status, 200, "{intent}");
    let intent = intent["payment_intent_id"].as_str().unwrap().to_owned();
    let (status, _) = stripe(
        Method::POST,
        &format!("payment_intents/{intent}/confirm"),
        &[],
    )
    .await;
    assert_eq!(status, 200);

    // The webhook: a forged signature is 403, a signed delivery 200.
    let forged = stack
        .http
        .post(stack.url("payments/stripe/webhook/"))
        .header("Stripe-Signature", "t=1,v1=00")
        .body(json!({ "id": "evt_forged", "type": "payment_intent.succeeded", "data": { "object": { "id": intent } } }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status().as_u16(), 403);
    credit_by_webhook(&stack, &intent).await;
    let account = user.stored_account().await;
    assert_eq!(account["active"], true, "{account}");
    assert_eq!(account["balance"], 2550);
    assert_eq!(account["payment_method_id"], card.as_str());
    assert_eq!(account["top_up_error"], Value::Null);
    let (_, me) = user.get("accounts/me/").await;
    assert_eq!(me["credit_card_wallet_balance"], 2550);
    assert_eq!(me["default_payment_method"], card.as_str());

    // Field errors of the card holder's name, in order, and the name saved.
    let (status, bad) = user
        .stack
        .send_auth(
            Method::PATCH,
            "payments/stripe-customer/name/update/",
            &user.me.access,
            Some(json!({ "first_name": "A", "last_name": "" })),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(bad["errors"][0]["field"], "first_name");
    assert_eq!(bad["errors"][1]["field"], "last_name");
    let (status, name) = user
        .stack
        .send_auth(
            Method::PATCH,
            "payments/stripe-customer/name/update/",
            &user.me.access,
            Some(json!({ "first_name": " Ann ", "last_name": "Lee" })),
        )
        .await;
    assert_eq!(status, 200, "{name}");
    assert_eq!(name, json!({ "first_name": "Ann", "last_name": "Lee" }));

    // Prices; a number wider than the field's type is the body's error, also a 400.
    let (status, estimate) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 2_500_000_000_i64, "months": 12 }),
        )
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["price"], (199 + 2 * 99) * 12);
    assert_eq!(estimate["new_storage_date"], Value::Null);
    let (status, _) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 1e308, "months": 12 }),
        )
        .await;
    assert_eq!(status, 400);
    let (status, pricing) = user.get("payments/pricing/").await;
    assert_eq!(status, 200);
    assert_eq!(pricing["top_up_presets"], json!([1000, 2500, 5000]));

    // The browser learns where Stripe.js comes from and with which key.
    let (status, config) = user.get("payments/config/").await;
    assert_eq!(status, 200);
    assert!(
        config["publishable_key"]
            .as_str()
            .unwrap()
            .starts_with("pk_")
    );
    assert!(
        config["stripe_js_url"]
            .as_str()
            .unwrap()
            .ends_with("/js.stripe.com/v3/")
    );
}

#[tokio::test]
async fn a_storage_extension_paid_from_the_wallet_moves_the_date_once() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let folder = user.folder().await;
    let folder_id = folder["id"].as_str().unwrap();

    // Without a wallet card and with a balance short of the price, nothing is charged.
    let pay = json!({ "kind": "storage_extension", "folder_id": folder_id, "months": 3, "pay_with": "wallet" });
    let (status, refused) = user
        .post_keyed("payments/stored-account/pay/", "p-0", pay.clone())
        .await;
    assert!(status == 400, "{status} {refused}");

    user.add_card(OK_CARD).await;
    let card = user.cards().await[0]["id"].as_str().unwrap().to_owned();
    let intent = user.confirmed_intent(&card, 2, 2500).await;
    credit_by_webhook(&stack, &intent).await;
    assert_eq!(user.balance().await, 2550);

    let (status, price) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "folder_id": folder_id, "months": 3 }),
        )
        .await;
    assert_eq!(status, 200, "{price}");
    assert_eq!(price["price"], 597);
    assert_eq!(price["wallet_total"], 597 + 119 - 12);
    assert!(
        price["new_storage_date"].as_str().unwrap() > folder["expiration_date"].as_str().unwrap()
    );

    let (status, paid) = user
        .post_keyed("payments/stored-account/pay/", "p-1", pay.clone())
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["transaction"]["paid_from_wallet"], 704);
    assert_eq!(paid["transaction"]["charged_to_card"], 0);
    assert_eq!(
        paid["transaction"]["storage_expires_at"],
        price["new_storage_date"]
    );
    assert_eq!(user.balance().await, 2550 - 704);

    // The retried request answers the first purchase and charges nothing.
    let (status, again) = user
        .post_keyed("payments/stored-account/pay/", "p-1", pay.clone())
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["transaction"]["id"], paid["transaction"]["id"]);
    assert_eq!(user.balance().await, 2550 - 704);

    // The folder's date moves to the paid date (from the event), and stays there.
    let want = paid["transaction"]["storage_expires_at"]
        .as_str()
        .unwrap()
        .to_owned();
    testing::eventually(
        "the folder's new storage date",
        Duration::from_secs(15),
        || async {
            let (_, f) = user.get(&format!("evidence/folders/{folder_id}/")).await;
            (f["expiration_date"].as_str() == Some(want.as_str())).then_some(())
        },
    )
    .await;
    let (status, transactions) = user.get("payments/transactions/").await;
    assert_eq!(status, 200);
    assert_eq!(transactions["transactions"].as_array().unwrap().len(), 1);
    let id = paid["transaction"]["id"].as_str().unwrap();
    let (status, one) = user.get(&format!("payments/transactions/{id}/")).await;
    assert_eq!(status, 200);
    assert!(
        one["transaction_number"]
            .as_str()
            .unwrap()
            .starts_with("EVD-")
    );

    // Another user cannot pay for (or price) this folder.
    let other = User::new(&stack).await;
    let (status, _) = other
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "folder_id": folder_id, "months": 1 }),
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_promo_code_credits_the_wallet_once_per_user() {
    let stack = Stack::start().await;
    let pool = sqlx::PgPool::connect(secrecy::ExposeSecret::expose_secret(&stack.referrals_db))
        .await
        .unwrap();
    let code = format!("P{}", &uuid::Uuid::new_v4().simple().to_string()[..5]).to_uppercase();
    referrals::app::promo::create(&pool, &code, 500, None, None)
        .await
        .unwrap();
    let typed = format!("{} {}", &code[..3], &code[3..]).to_lowercase();

    let user = User::new(&stack).await;
    user.customer().await;
    let (status, body) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "k-1",
            json!({ "code": typed }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["amount"], 500);
    testing::eventually("the promo credit", Duration::from_secs(15), || async {
        (user.balance().await == 500).then_some(())
    })
    .await;
    let (status, again) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "k-1",
            json!({ "code": typed }),
        )
        .await;
    assert_eq!(status, 200, "the same request again answers the same");
    assert_eq!(again["amount"], 500);
    let (status, twice) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "k-2",
            json!({ "code": typed }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        twice["errors"][0]["message"],
        "You have already used this promo code."
    );
    assert_eq!(twice["errors"][0]["field"], "code");
    let (status, unknown) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "k-3",
            json!({ "code": "ZZZ 999" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        unknown["errors"][0]["message"],
        "This promo code is not valid."
    );
    // The first request's key with another code is a reused key, not a second credit.
    let other = format!("Q{}", &uuid::Uuid::new_v4().simple().to_string()[..5]).to_uppercase();
    referrals::app::promo::create(&pool, &other, 700, None, None)
        .await
        .unwrap();
    let (status, reused) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "k-1",
            json!({ "code": other }),
        )
        .await;
    assert_eq!(status, 409, "{reused}");
    assert_eq!(reused["errors"][0]["code"], "idempotency_key_reused");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(user.balance().await, 500, "credited once");
}

#[tokio::test]
async fn a_paid_extension_that_cannot_be_applied_is_refunded_to_the_wallet() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let folder = user.folder().await;
    let folder_id = folder["id"].as_str().unwrap();
    user.add_card(OK_CARD).await;
    let card = user.cards().await[0]["id"].as_str().unwrap().to_owned();
    let intent = user.confirmed_intent(&card, 2, 2500).await;
    credit_by_webhook(&stack, &intent).await;
    assert_eq!(user.balance().await, 2550);

    // The folder's files were deleted after its storage date (evidence keeps the row): the
    // extension is paid, evidence refuses it, and the money comes back once.
    let evidence = sqlx::PgPool::connect(secrecy::ExposeSecret::expose_secret(&stack.evidence_db))
        .await
        .unwrap();
    sqlx::query!(
        "UPDATE folders SET purged_at = now() WHERE id = $1",
        uuid::Uuid::parse_str(folder_id).unwrap()
    )
    .execute(&evidence)
    .await
    .unwrap();
    let (status, paid) = user
        .post_keyed(
            "payments/stored-account/pay/",
            "refund-1",
            json!({ "kind": "storage_extension", "folder_id": folder_id, "months": 1, "pay_with": "wallet" }),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["stored_account"]["balance"], 2550 - 235);
    assert_eq!(paid["transaction"]["refunded_at"], Value::Null);
    testing::eventually("the refund", Duration::from_secs(15), || async {
        (user.balance().await == 2550).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(user.balance().await, 2550, "refunded once");
    // The purchase's own page says so, and the refund's line carries evidence's reason as it is.
    let transaction_id = paid["transaction"]["id"].as_str().unwrap();
    let (status, transaction) = user
        .get(&format!("payments/transactions/{transaction_id}/"))
        .await;
    assert_eq!(status, 200, "{transaction}");
    assert!(transaction["refunded_at"].is_string(), "{transaction}");
    let (_, listed) = user.get("payments/transactions/").await;
    let refund = listed["movements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "refund")
        .expect("the refund's line")
        .clone();
    assert_eq!(refund["transaction_id"], transaction_id, "{refund}");
    let reason = refund["description"].as_str().unwrap();
    assert!(
        !reason.is_empty() && !reason.starts_with("Refund"),
        "the line is labelled a refund already: {reason}"
    );
    let (_, f) = user.get(&format!("evidence/folders/{folder_id}/")).await;
    assert_eq!(
        f["expiration_date"], folder["expiration_date"],
        "the date did not move"
    );
}
