//! Payments through the REST API against the real services, PostgreSQL, RabbitMQ and the Stripe
//! emulator (localstripe): cards, duplicates and declines, the wallet credited once from the
//! webhook, idempotency keys, purchases paid from the wallet that move a folder's storage date
//! once, auto top-up and its decline, promo codes, prices.

use std::time::Duration;

use crate::support::{SignedUp, Stack};
use evidentia_common::testing;
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::{DECLINED_CARD, DECLINED_OFF_SESSION, OK_CARD, stripe};

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

#[tokio::test]
async fn a_card_is_saved_as_default_and_the_same_card_again_is_a_duplicate() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let (first, confirmed) = user.add_card(OK_CARD).await;
    assert!(confirmed);
    let cards = user.cards().await;
    assert_eq!(cards.len(), 1);
    assert_eq!(cards[0]["brand"], "visa");
    assert_eq!(cards[0]["last4"], "4242");
    assert_eq!(
        cards[0]["default_method"], true,
        "spec §2: the first card is the default"
    );
    assert_eq!(cards[0]["wallet"], false);
    assert_eq!(cards[0]["fingerprint"], first["fingerprint"]);
    // Spec §9: the first authorisation charges $0.50, kept as wallet credit.
    assert_eq!(user.balance().await, 50);

    // Spec §4: the same card number has the same fingerprint; the client stops there, and a
    // client that did not is not given a second card.
    let (second, confirmed) = user.add_card(OK_CARD).await;
    assert_eq!(second["fingerprint"], first["fingerprint"]);
    assert!(confirmed);
    assert_eq!(user.cards().await.len(), 1);
    assert_eq!(
        user.balance().await,
        50,
        "the first authorisation is charged once"
    );

    // Another user's card is not reachable.
    let other = User::new(&stack).await;
    let id = cards[0]["id"].as_str().unwrap();
    let (status, _) = other
        .get(&format!("payments/payment-method/{id}/retrieve/"))
        .await;
    assert_eq!(status, 404);
    let (status, _) = other
        .post(
            "payments/payment-method/set-default/",
            json!({ "payment_method_id": id }),
        )
        .await;
    assert_eq!(status, 404);
}

/// Spec §7 ids go into Stripe's URLs: only Stripe's shape (prefix, `_`, letters and digits) is
/// taken from a client, as a 400 on the field, before anything is looked up, stored or sent.
#[tokio::test]
async fn stripe_ids_off_stripes_shape_are_field_errors_and_nothing_is_stored() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let customer = user.customer().await;
    for bad in ["é", " ", "a\r\nb", "../x", "pm_X?expand[]=customer"] {
        let (status, body) = user
            .post(
                "payments/payment-method/register/",
                json!({ "payment_method_id": bad }),
            )
            .await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert_eq!(body["errors"][0]["field"], "payment_method_id", "{bad:?}");
        let message = body["errors"][0]["message"].as_str().unwrap();
        assert!(
            message == "This field is required" || message.starts_with("Expected a Stripe"),
            "{bad:?}: {message}"
        );
        for path in [
            "payments/payment-method/set-default/",
            "payments/payment-method/remove/",
        ] {
            let (status, body) = user.post(path, json!({ "payment_method_id": bad })).await;
            assert_eq!(status, 400, "{path} {bad:?}: {body}");
            assert_eq!(body["errors"][0]["field"], "payment_method_id");
        }
        let (status, body) = user
            .post(
                "payments/stored-account/update/",
                json!({ "auto_topping_up_amount": 1000, "payment_method_id": bad }),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["errors"][0]["field"], "payment_method_id");
        let (status, body) = user
            .post_keyed(
                "payments/payment-intent/create/",
                &uuid::Uuid::new_v4().to_string(),
                json!({ "payment_method_id": bad, "metadata": { "action": 4, "amount": 1000 } }),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["errors"][0]["field"], "payment_method_id");
        let (status, body) = user
            .post(
                "payments/stripe-setup-intent/create/",
                json!({ "stripe_customer_id": bad }),
            )
            .await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert_eq!(body["errors"][0]["field"], "stripe_customer_id");
    }
    let (status, body) = user
        .post(
            "payments/stripe-setup-intent/create/",
            json!({ "stripe_customer_id": format!("{customer}?expand[]=x") }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let encoded = "pm_X%3Fexpand%5B%5D%3Dcustomer";
    let (status, _) = user
        .get(&format!("payments/payment-method/{encoded}/retrieve/"))
        .await;
    assert_eq!(status, 404, "an id that cannot be a card names no card");

    let payments = sqlx::PgPool::connect(secrecy::ExposeSecret::expose_secret(&stack.payments_db))
        .await
        .unwrap();
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM payment_methods")
        .fetch_one(&payments)
        .await
        .unwrap();
    assert_eq!(stored, 0, "no card id was stored");
    let (status, body) = user.get("payments/stored-account/get/").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["payment_method_id"], Value::Null);
}

#[tokio::test]
async fn a_card_declined_at_setup_is_never_saved() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let (_, confirmed) = user.add_card(DECLINED_CARD).await;
    assert!(!confirmed, "4000000000000002 is declined when set up");
    assert!(user.cards().await.is_empty());
    assert_eq!(user.balance().await, 0);
}

#[tokio::test]
async fn the_default_card_cannot_be_removed_until_another_is_default() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    user.add_card(OK_CARD).await;
    user.add_card("5555555555554444").await;
    let cards = user.cards().await;
    assert_eq!(cards.len(), 2);
    let first = cards[0]["id"].as_str().unwrap().to_owned();
    let second = cards[1]["id"].as_str().unwrap().to_owned();
    assert_eq!(cards[1]["last4"], "4444");

    let (status, body) = user
        .post(
            "payments/payment-method/remove/",
            json!({ "payment_method_id": first }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["errors"][0]["message"],
        "Cannot remove user's default payment method. Set another method as default and try again."
    );

    let (status, body) = user
        .post(
            "payments/payment-method/set-default/",
            json!({ "payment_method_id": second }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["payment_methods"][1]["default_method"], true);
    let (status, me) = user.get("accounts/me/").await;
    assert_eq!(status, 200);
    assert_eq!(me["default_payment_method"], second.as_str());

    let (status, body) = user
        .post(
            "payments/payment-method/remove/",
            json!({ "payment_method_id": first }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["payment_methods"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_wallet_is_credited_once_from_the_webhook_and_keys_return_the_first_answer() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    user.add_card(OK_CARD).await;
    let card = user.cards().await[0]["id"].as_str().unwrap().to_owned();

    // The same key answers the same intent; the same key with another request is refused.
    let body = json!({ "payment_method_id": card, "metadata": { "action": 2, "amount": 2500 } });
    let (status, first) = user
        .post_keyed(
            "payments/payment-intent/create/",
            "create-wallet-1",
            body.clone(),
        )
        .await;
    assert_eq!(status, 200, "{first}");
    let (status, again) = user
        .post_keyed("payments/payment-intent/create/", "create-wallet-1", body)
        .await;
    assert_eq!(status, 200);
    assert_eq!(again, first);
    let (status, reused) = user
        .post_keyed(
            "payments/payment-intent/create/",
            "create-wallet-1",
            json!({ "payment_method_id": card, "metadata": { "action": 2, "amount": 5000 } }),
        )
        .await;
    assert_eq!(status, 409, "{reused}");
    // Spec §5 wallet amounts.
    let (status, low) = user
        .post_keyed(
            "payments/payment-intent/create/",
            "low",
            json!({ "payment_method_id": card, "metadata": { "action": 4, "amount": 999 } }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        low["errors"][0]["message"],
        "The amount should be more then 10$"
    );
    let (status, _) = user
        .post(
            "payments/payment-intent/create/",
            json!({ "payment_method_id": card, "metadata": { "action": 2, "amount": 2500 } }),
        )
        .await;
    assert_eq!(status, 400, "an Idempotency-Key is required");

    let intent = first["payment_intent_id"].as_str().unwrap();
    let (status, _) = stripe(
        Method::POST,
        &format!("payment_intents/{intent}/confirm"),
        &[],
    )
    .await;
    assert_eq!(status, 200);

    // A delivery without a valid signature changes nothing.
    let forged = stack
        .http
        .post(stack.url("payments/stripe/webhook/"))
        .header("Stripe-Signature", "t=1,v1=00")
        .body(json!({ "id": "evt_forged", "type": "payment_intent.succeeded", "data": { "object": { "id": intent } } }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status().as_u16(), 403);

    // The same event delivered twice, and a second event for the same intent: credited once.
    let event = format!("evt_{}", uuid::Uuid::new_v4().simple());
    let object = json!({ "id": intent, "object": "payment_intent" });
    for _ in 0..2 {
        assert_eq!(
            deliver(&stack, &event, "payment_intent.succeeded", object.clone()).await,
            200
        );
    }
    credit_by_webhook(&stack, intent).await;
    assert_eq!(user.balance().await, 50 + 2500);
    let account = user.stored_account().await;
    assert_eq!(account["active"], true, "{account}");
    assert_eq!(account["payment_method_id"], card.as_str());
    assert_eq!(account["auto_topping_up_amount"], 2500);
    assert_eq!(account["top_up_error"], Value::Null);
    let (_, me) = user.get("accounts/me/").await;
    assert_eq!(me["credit_card_wallet_balance"], 2550);
    assert_eq!(me["one_time_benefit_applied"], true);

    // A top-up (action 4) the webhook has not reached yet is still counted once: reading the
    // wallet reconciles it with Stripe, and the later webhook changes nothing.
    let top_up = user.confirmed_intent(&card, 4, 1000).await;
    assert_eq!(user.balance().await, 3550);
    credit_by_webhook(&stack, &top_up).await;
    assert_eq!(user.balance().await, 3550);
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
async fn the_wallet_tops_up_below_five_dollars_and_a_declined_top_up_is_reported() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let folder = user.folder().await;
    let folder_id = folder["id"].as_str().unwrap();
    user.add_card(OK_CARD).await;
    let good = user.cards().await[0]["id"].as_str().unwrap().to_owned();
    let intent = user.confirmed_intent(&good, 2, 1000).await;
    credit_by_webhook(&stack, &intent).await;
    assert_eq!(user.balance().await, 1050);

    // 3 months from the wallet (704) leaves 346, under $5.00: the wallet tops up by 1000.
    let pay = |months: i32| json!({ "kind": "storage_extension", "folder_id": folder_id, "months": months, "pay_with": "wallet" });
    let (status, body) = user
        .post_keyed("payments/stored-account/pay/", "t-1", pay(3))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(user.balance().await, 346 + 1000);

    // With a card that is declined off-session, the next top-up fails and says so (spec §8).
    user.add_card(DECLINED_OFF_SESSION).await;
    let bad = user
        .cards()
        .await
        .into_iter()
        .find(|c| c["last4"] == "0341")
        .expect("the 0341 card saves")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = user
        .post(
            "payments/stored-account/update/",
            json!({ "auto_topping_up_amount": 1000, "payment_method_id": bad }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = user
        .post_keyed("payments/stored-account/pay/", "t-2", pay(12))
        .await;
    assert_eq!(status, 402, "the shortfall charge is declined: {body}");
    assert_eq!(body["errors"][0]["code"], "card_declined");
    assert_eq!(user.balance().await, 1346, "nothing moved");
    let (status, body) = user
        .post_keyed("payments/stored-account/pay/", "t-3", pay(3))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        user.balance().await,
        1346 - 704,
        "the purchase itself is paid"
    );
    let account = user.stored_account().await;
    assert!(
        account["top_up_error"]
            .as_str()
            .is_some_and(|e| !e.is_empty()),
        "{account}"
    );
    assert_eq!(account["last4"], "0341");

    // Back to a good card: the error clears.
    let (status, account) = user
        .post(
            "payments/stored-account/update/",
            json!({ "auto_topping_up_amount": 1000, "payment_method_id": good }),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(account["top_up_error"], Value::Null);

    // Closing the wallet keeps the balance.
    let (status, closed) = user
        .stack
        .send_auth(
            Method::DELETE,
            "payments/stored-account/delete/",
            &user.me.access,
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(closed["active"], false);
    assert_eq!(closed["balance"], 1346 - 704);
}

/// Every money movement is listed with its method: the first authorisation, the wallet's
/// creation and a top-up by card, a promo credit and purchases from the wallet, and an auto
/// top-up the card declined (4000000000000341), which moved nothing.
#[tokio::test]
async fn every_money_movement_is_listed_with_its_card_or_the_wallet() {
    let stack = Stack::start().await;
    let referrals =
        sqlx::PgPool::connect(secrecy::ExposeSecret::expose_secret(&stack.referrals_db))
            .await
            .unwrap();
    let code = format!("M{}", &uuid::Uuid::new_v4().simple().to_string()[..5]).to_uppercase();
    referrals::app::promo::create(&referrals, &code, 500, None, None)
        .await
        .unwrap();
    let user = User::new(&stack).await;
    let folder = user.folder().await;
    let folder_id = folder["id"].as_str().unwrap();
    user.add_card(OK_CARD).await;
    let good = user.cards().await[0]["id"].as_str().unwrap().to_owned();
    let created = user.confirmed_intent(&good, 2, 1000).await;
    credit_by_webhook(&stack, &created).await;
    let top_up = user.confirmed_intent(&good, 4, 1000).await;
    credit_by_webhook(&stack, &top_up).await;
    let (status, body) = user
        .post_keyed(
            "shareable-codes/promo-code/check/",
            "movements-promo",
            json!({ "code": format!("{} {}", &code[..3], &code[3..]) }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    testing::eventually("the promo credit", Duration::from_secs(15), || async {
        (user.balance().await == 50 + 1000 + 1000 + 500).then_some(())
    })
    .await;

    // The wallet card becomes one declined off-session; 6 then 3 months from the wallet leave
    // 2550 - 1409 - 704 = 437, under $5.00, and the auto top-up of $10.00 is declined.
    user.add_card(DECLINED_OFF_SESSION).await;
    let bad = user
        .cards()
        .await
        .into_iter()
        .find(|c| c["last4"] == "0341")
        .expect("the 0341 card saves")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = user
        .post(
            "payments/stored-account/update/",
            json!({ "auto_topping_up_amount": 1000, "payment_method_id": bad }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let pay = |months: i32| json!({ "kind": "storage_extension", "folder_id": folder_id, "months": months, "pay_with": "wallet" });
    let (status, six) = user
        .post_keyed("payments/stored-account/pay/", "movements-6", pay(6))
        .await;
    assert_eq!(status, 200, "{six}");
    let (status, three) = user
        .post_keyed("payments/stored-account/pay/", "movements-3", pay(3))
        .await;
    assert_eq!(status, 200, "{three}");
    assert_eq!(
        user.balance().await,
        437,
        "the declined top-up moved nothing"
    );

    let (status, body) = user.get("payments/transactions/").await;
    assert_eq!(status, 200, "{body}");
    let movements = body["movements"].as_array().unwrap();
    let seen: Vec<(String, String, i64, String)> = movements
        .iter()
        .map(|m| {
            let method = match m["card"].as_object() {
                Some(card) => format!(
                    "{} {}",
                    card["brand"].as_str().unwrap(),
                    card["last4"].as_str().unwrap()
                ),
                None => "wallet".to_owned(),
            };
            (
                m["kind"].as_str().unwrap().to_owned(),
                m["status"].as_str().unwrap().to_owned(),
                m["amount"].as_i64().unwrap(),
                method,
            )
        })
        .collect();
    let want = |kind: &str, status: &str, amount: i64, method: &str| {
        (
            kind.to_owned(),
            status.to_owned(),
            amount,
            method.to_owned(),
        )
    };
    assert_eq!(
        seen,
        vec![
            want("auto_top_up", "declined", 1000, "visa 0341"),
            want("purchase", "completed", -704, "wallet"),
            want("purchase", "completed", -1409, "wallet"),
            want("promo", "completed", 500, "wallet"),
            want("top_up", "completed", 1000, "visa 4242"),
            want("wallet_created", "completed", 1000, "visa 4242"),
            want("authorisation", "completed", 50, "visa 4242"),
        ],
        "{body}"
    );
    assert!(
        movements[0]["decline_message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert_eq!(
        movements[1]["transaction_id"], three["transaction"]["id"],
        "a purchase opens its transaction"
    );
    assert!(
        movements
            .iter()
            .all(|m| m["created_at"].as_str().is_some_and(|t| !t.is_empty()))
    );
    assert_eq!(body["transactions"].as_array().unwrap().len(), 2);

    // Another user sees none of it.
    let other = User::new(&stack).await;
    let (_, theirs) = other.get("payments/transactions/").await;
    assert_eq!(theirs["movements"], json!([]));
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
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(user.balance().await, 500, "credited once");
}

#[tokio::test]
async fn prices_come_from_the_one_pricing_configuration() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let (status, estimate) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 2_500_000_000_i64, "months": 12 }),
        )
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["price"], (199 + 2 * 99) * 12);
    assert_eq!(estimate["new_storage_date"], Value::Null);
    let (status, bad) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 1, "months": 5 }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(bad["errors"][0]["field"], "months");
    let (status, sharing) = user
        .post(
            "payments/sharing-price/calculate/",
            json!({ "copy_type": "authenticated", "recipients": 2 }),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(sharing["price"], 998);
    assert!(sharing["wallet_total"].as_i64() < sharing["total"].as_i64());
    let (status, pricing) = user.get("payments/pricing/").await;
    assert_eq!(status, 200);
    assert_eq!(pricing["top_up_presets"], json!([1000, 2500, 5000]));
    assert_eq!(pricing["auto_top_up_threshold"], 500);
}

/// Every number a client sends has a range (docs/decisions.md): past it is a 400 on the field,
/// never an overflow, a panic or a 5xx.
#[tokio::test]
async fn numbers_past_their_ranges_are_field_errors_not_server_errors() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    let price = |size: Value| json!({ "size_bytes": size, "months": 12 });
    for size in [json!(i64::MAX), json!(10_000_000_000_001_i64), json!(-1)] {
        let (status, body) = user
            .post(
                "payments/storage-price-prolong/calculate/",
                price(size.clone()),
            )
            .await;
        assert_eq!(status, 400, "{size}: {body}");
        assert_eq!(body["errors"][0]["field"], "size_bytes", "{size}");
    }
    let (status, body) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            price(json!(i64::MAX)),
        )
        .await;
    assert_eq!(
        body["errors"][0]["message"], "The size can be at most 10000 GB.",
        "{status}"
    );
    // The largest size priced for the longest period.
    let (status, body) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            price(json!(10_000_000_000_000_i64)),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["price"], (199 + 9_999 * 99) * 12);
    // Wider than the field's type is the body's error, also a 400.
    let (status, _) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 1e308, "months": 12 }),
        )
        .await;
    assert_eq!(status, 400);
    for recipients in [0, 101, i32::MAX] {
        let (status, body) = user
            .post(
                "payments/sharing-price/calculate/",
                json!({ "copy_type": "authenticated", "recipients": recipients }),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["errors"][0]["field"], "recipients");
    }
    let (status, body) = user
        .post(
            "payments/storage-price-prolong/calculate/",
            json!({ "size_bytes": 1, "months": i32::MAX }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "months");

    // An item's duration is a finite number of seconds up to 24 hours.
    let folder = user.folder().await;
    let folder_id = folder["id"].as_str().unwrap();
    let item = |duration: Value| {
        json!({
            "name": "Walkaround",
            "media_type": "video",
            "mime_type": "video/mp4",
            "file_size": 1000,
            "sha256": "0".repeat(64),
            "duration": duration,
        })
    };
    let create = format!("evidence/folders/{folder_id}/items/create/");
    for duration in [json!(1e308), json!(86_400.5), json!(-1)] {
        let (status, body) = user.post(&create, item(duration.clone())).await;
        assert_eq!(status, 400, "{duration}: {body}");
        assert_eq!(body["errors"][0]["field"], "duration", "{duration}");
    }
    let (_, body) = user.post(&create, item(json!(1e308))).await;
    assert_eq!(
        body["errors"][0]["message"],
        "The duration can be at most 24 hours (86400 seconds)."
    );
    let (status, body) = user.post(&create, item(json!(86_400))).await;
    assert_eq!(status, 201, "a day long is accepted: {body}");
}

#[tokio::test]
async fn the_card_holder_name_is_checked_and_set_on_the_stripe_customer() {
    let stack = Stack::start().await;
    let user = User::new(&stack).await;
    // Spec §5 "Billing first and last name".
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
    assert_eq!(bad["errors"][0]["message"], "Minimum 2 characters");
    assert_eq!(bad["errors"][1]["field"], "last_name");
    assert_eq!(bad["errors"][1]["message"], "This field is required");
    let (status, _) = user
        .stack
        .send_auth(
            Method::PATCH,
            "payments/stripe-customer/name/update/",
            &user.me.access,
            Some(json!({ "first_name": "Ann", "last_name": "x".repeat(51) })),
        )
        .await;
    assert_eq!(status, 400);

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
    let customer = user.customer().await;
    let (status, at_stripe) = stripe(Method::GET, &format!("customers/{customer}"), &[]).await;
    assert_eq!(status, 200);
    assert_eq!(at_stripe["name"], "Ann Lee");

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
    sqlx::query("UPDATE folders SET purged_at = now() WHERE id = $1")
        .bind(uuid::Uuid::parse_str(folder_id).unwrap())
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
    testing::eventually("the refund", Duration::from_secs(15), || async {
        (user.balance().await == 2550).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(user.balance().await, 2550, "refunded once");
    let (_, f) = user.get(&format!("evidence/folders/{folder_id}/")).await;
    assert_eq!(
        f["expiration_date"], folder["expiration_date"],
        "the date did not move"
    );
}
