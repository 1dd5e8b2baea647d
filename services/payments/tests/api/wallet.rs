//! The CreditCard Wallet against the Stripe emulator (localstripe): credited once from the
//! webhook, idempotency keys, the auto top-up under $5.00 and its decline, and every money
//! movement listed with its card or the wallet.

use evidentia_common::testing::{self, WAIT};
use evidentia_proto::{events::v1::PromoCodeRedeemed, payments::v1 as pb};
use tonic::Code;
use uuid::Uuid;

use crate::helpers::{TestApp, account_created, as_user, user_of};

const OK_CARD: &str = "4242424242424242";
const DECLINED_OFF_SESSION: &str = "4000000000000341";

/// A storage extension of `months` for a new, empty folder, paid from the wallet.
fn extension(folder_id: Uuid, months: i32, key: &str) -> pb::PayRequest {
    pb::PayRequest {
        kind: "storage_extension".to_owned(),
        folder: Some(pb::FolderSnapshot {
            folder_id: folder_id.to_string(),
            used_bytes: 0,
            storage_expires_at: None,
        }),
        months,
        pay_with: "wallet".to_owned(),
        idempotency_key: key.to_owned(),
        share: None,
    }
}

#[tokio::test]
async fn the_wallet_is_credited_once_from_the_webhook_and_keys_return_the_first_answer() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let card = app.saved_card(&user, OK_CARD).await;
    let mut client = app.client();
    let intent = |action: i32, amount: i64, key: &str| {
        caller.request(pb::CreatePaymentIntentRequest {
            payment_method_id: card.clone(),
            metadata: Some(pb::PaymentIntentMetadata { action, amount }),
            idempotency_key: key.to_owned(),
        })
    };

    // The same key answers the same intent; the same key with another request is refused.
    let first = client
        .create_payment_intent(intent(2, 2500, "create-wallet-1"))
        .await
        .unwrap()
        .into_inner();
    let again = client
        .create_payment_intent(intent(2, 2500, "create-wallet-1"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again, first);
    let reused = client
        .create_payment_intent(intent(2, 5000, "create-wallet-1"))
        .await
        .unwrap_err();
    assert_eq!(reused.code(), Code::AlreadyExists, "{reused:?}");
    // Spec §5 wallet amounts.
    let low = client
        .create_payment_intent(intent(4, 999, "low"))
        .await
        .unwrap_err();
    assert_eq!(low.message(), "The amount should be more then 10$");

    let id = first.payment_intent_id.as_str();
    app.stripe(
        reqwest::Method::POST,
        &format!("payment_intents/{id}/confirm"),
        &[],
    )
    .await;

    // A delivery without a valid signature changes nothing.
    let forged = client
        .handle_stripe_webhook(pb::StripeWebhookRequest {
            payload: serde_json::json!({
                "id": "evt_forged", "type": "payment_intent.succeeded",
                "data": { "object": { "id": id } }
            })
            .to_string()
            .into_bytes(),
            signature: "t=1,v1=00".to_owned(),
        })
        .await
        .unwrap_err();
    assert_eq!(forged.code(), Code::PermissionDenied);

    // The same event delivered twice, and a second event for the same intent: credited once.
    let event = format!("evt_{}", Uuid::new_v4().simple());
    let object = serde_json::json!({ "id": id, "object": "payment_intent" });
    for _ in 0..2 {
        app.deliver(&event, "payment_intent.succeeded", object.clone())
            .await
            .unwrap();
    }
    app.credit_by_webhook(id).await;
    assert_eq!(app.balance(&user).await, 50 + 2500);
    let account = app.stored_account(&user).await;
    assert!(account.active, "{account:?}");
    assert_eq!(account.payment_method_id.as_deref(), Some(card.as_str()));
    assert_eq!(account.auto_topping_up_amount, 2500);
    assert_eq!(account.top_up_error, None);
    let profile = app.profile(user_of(&user)).await;
    assert_eq!(profile.credit_card_wallet_balance, 2550);
    assert!(profile.one_time_benefit_applied);

    // A top-up (action 4) the webhook has not reached yet is still counted once: reading the
    // wallet reconciles it with Stripe, and the later webhook changes nothing.
    let top_up = app.confirmed_intent(&user, &card, 4, 1000).await;
    assert_eq!(app.balance(&user).await, 3550);
    app.credit_by_webhook(&top_up).await;
    assert_eq!(app.balance(&user).await, 3550);
    app.stop().await;
}

#[tokio::test]
async fn the_wallet_tops_up_below_five_dollars_and_a_declined_top_up_is_reported() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let folder = Uuid::now_v7();
    let good = app.saved_card(&user, OK_CARD).await;
    let intent = app.confirmed_intent(&user, &good, 2, 1000).await;
    app.credit_by_webhook(&intent).await;
    assert_eq!(app.balance(&user).await, 1050);
    let mut client = app.client();

    // 3 months from the wallet (704) leaves 346, under $5.00: the wallet tops up by 1000.
    client
        .pay(caller.request(extension(folder, 3, "t-1")))
        .await
        .unwrap();
    assert_eq!(app.balance(&user).await, 346 + 1000);

    // With a card that is declined off-session, the next top-up fails and says so (spec §8).
    // The 0341 card saves (listing the cards reconciles its finished setup).
    let bad = app.saved_card(&user, DECLINED_OFF_SESSION).await;
    client
        .update_stored_account(caller.request(pb::UpdateStoredAccountRequest {
            auto_topping_up_amount: 1000,
            payment_method_id: bad.clone(),
        }))
        .await
        .unwrap();
    let declined = client
        .pay(caller.request(extension(folder, 12, "t-2")))
        .await
        .unwrap_err();
    assert_eq!(
        testing::reason(&declined).as_deref(),
        Some("card_declined"),
        "the shortfall charge is declined: {declined:?}"
    );
    assert_eq!(app.balance(&user).await, 1346, "nothing moved");
    client
        .pay(caller.request(extension(folder, 3, "t-3")))
        .await
        .unwrap();
    assert_eq!(
        app.balance(&user).await,
        1346 - 704,
        "the purchase itself is paid"
    );
    let account = app.stored_account(&user).await;
    assert!(
        account.top_up_error.as_ref().is_some_and(|e| !e.is_empty()),
        "{account:?}"
    );
    assert_eq!(account.last4.as_deref(), Some("0341"));

    // Back to a good card: the error clears.
    let account = client
        .update_stored_account(caller.request(pb::UpdateStoredAccountRequest {
            auto_topping_up_amount: 1000,
            payment_method_id: good,
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(account.top_up_error, None);

    // Closing the wallet keeps the balance.
    let closed = client
        .delete_stored_account(caller.request(pb::DeleteStoredAccountRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert!(!closed.active);
    assert_eq!(closed.balance, 1346 - 704);
    app.stop().await;
}

/// Every money movement is listed with its method: the first authorisation, the wallet's
/// creation and a top-up by card, a promo credit and purchases from the wallet, and an auto
/// top-up the card declined (4000000000000341), which moved nothing.
#[tokio::test]
async fn every_money_movement_is_listed_with_its_card_or_the_wallet() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let folder = Uuid::now_v7();
    let good = app.saved_card(&user, OK_CARD).await;
    let created = app.confirmed_intent(&user, &good, 2, 1000).await;
    app.credit_by_webhook(&created).await;
    let top_up = app.confirmed_intent(&user, &good, 4, 1000).await;
    app.credit_by_webhook(&top_up).await;
    // A promo code redeemed at referrals, as its event announces it.
    app.service
        .publish(
            &PromoCodeRedeemed {
                redemption_id: Uuid::now_v7().to_string(),
                user_id: user.user_id.clone(),
                code: "M12345".to_owned(),
                amount: 500,
                occurred_at: None,
            },
            Uuid::now_v7(),
        )
        .await;
    testing::eventually("the promo credit", WAIT, || async {
        (app.balance(&user).await == 50 + 1000 + 1000 + 500).then_some(())
    })
    .await;

    // The wallet card becomes one declined off-session; 6 then 3 months from the wallet leave
    // 2550 - 1409 - 704 = 437, under $5.00, and the auto top-up of $10.00 is declined.
    // The 0341 card saves (listing the cards reconciles its finished setup).
    let bad = app.saved_card(&user, DECLINED_OFF_SESSION).await;
    let mut client = app.client();
    client
        .update_stored_account(caller.request(pb::UpdateStoredAccountRequest {
            auto_topping_up_amount: 1000,
            payment_method_id: bad,
        }))
        .await
        .unwrap();
    client
        .pay(caller.request(extension(folder, 6, "movements-6")))
        .await
        .unwrap();
    let three = client
        .pay(caller.request(extension(folder, 3, "movements-3")))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        app.balance(&user).await,
        437,
        "the declined top-up moved nothing"
    );

    let listed = client
        .list_transactions(caller.request(pb::ListTransactionsRequest {}))
        .await
        .unwrap()
        .into_inner();
    let seen: Vec<(&str, &str, i64, String)> = listed
        .movements
        .iter()
        .map(|m| {
            let method = m.card.as_ref().map_or_else(
                || "wallet".to_owned(),
                |card| format!("{} {}", card.brand, card.last4),
            );
            (m.kind.as_str(), m.status.as_str(), m.amount, method)
        })
        .collect();
    let want = |kind, status, amount, method: &str| (kind, status, amount, method.to_owned());
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
        "{listed:?}"
    );
    let movements = &listed.movements;
    assert!(
        movements[0]
            .decline_message
            .as_ref()
            .is_some_and(|m| !m.is_empty())
    );
    assert_eq!(
        movements[1].transaction_id,
        three.transaction.map(|t| t.id),
        "a purchase opens its transaction"
    );
    assert!(movements.iter().all(|m| m.created_at.is_some()));
    assert_eq!(listed.transactions.len(), 2);

    // Another user sees none of it.
    let other = as_user(user_of(&account_created()));
    let theirs = client
        .list_transactions(other.request(pb::ListTransactionsRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert!(theirs.movements.is_empty());
    app.stop().await;
}
