//! Referral rewards: paid to both wallets once on the friend's first purchase however many race,
//! decided when the referral arrives after the purchase, taken back on a refund, refused for a
//! card the inviter also registered, held for one card behind two friends, capped per month.

use evidentia_common::testing::{self, OK_CARD};
use evidentia_proto::{
    events::v1::{AccountCreated, ReferralRecorded, StorageExtensionRefused},
    payments::v1 as pb,
};
use uuid::Uuid;

use crate::helpers::{TestApp, account_created, as_user, extension, user_of};

const FRIEND_CARD: &str = "5555555555554444";
const OTHER_CARD: &str = "4000056655665556";

/// The user's wallet movements of `kind` (`referral`, `referral_reversal`), as amounts.
async fn movements(app: &TestApp, user: &AccountCreated, kind: &str) -> Vec<i64> {
    app.client()
        .list_transactions(as_user(user_of(user)).request(pb::ListTransactionsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .movements
        .into_iter()
        .filter(|m| m.kind == kind)
        .map(|m| m.amount)
        .collect()
}

/// Tells payments that `friend` signed up with `inviter`'s code, as referrals does, and waits.
async fn referred(app: &TestApp, friend: &AccountCreated, inviter: &AccountCreated) {
    let message = Uuid::now_v7();
    app.service
        .publish(
            &ReferralRecorded {
                referred_id: friend.user_id.clone(),
                referrer_id: inviter.user_id.clone(),
                occurred_at: None,
            },
            message,
        )
        .await;
    app.service.wait_processed(message).await;
}

/// A storage extension the user pays by card; its purchase id.
async fn pays(app: &TestApp, user: &AccountCreated) -> Uuid {
    let paid = app
        .client()
        .pay(as_user(user_of(user)).request(extension(
            Uuid::now_v7(),
            "card",
            &Uuid::new_v4().to_string(),
        )))
        .await
        .unwrap()
        .into_inner();
    Uuid::parse_str(&paid.transaction.unwrap().id).unwrap()
}

/// The reward's state and why, read from payments' database.
async fn reward(app: &TestApp, friend: &AccountCreated) -> (String, String) {
    let mut conn = testing::connect(&app.service.database_url).await;
    let row = sqlx::query!(
        "SELECT state, reason FROM referral_rewards WHERE referred_id = $1",
        user_of(friend)
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    (row.state, row.reason)
}

#[tokio::test]
async fn racing_first_payments_pay_both_rewards_once_and_a_refund_takes_them_back() {
    let app = TestApp::spawn().await;
    let (inviter, friend) = (account_created(), account_created());
    app.saved_card(&inviter, OK_CARD).await;
    app.saved_card(&friend, FRIEND_CARD).await;
    referred(&app, &friend, &inviter).await;
    assert_eq!(reward(&app, &friend).await.0, "pending");

    let caller = as_user(user_of(&friend));
    let paid = futures::future::join_all((0..5).map(|n| {
        let mut client = app.client();
        let request = caller.request(extension(Uuid::now_v7(), "card", &format!("first-{n}")));
        async move { client.pay(request).await.map(tonic::Response::into_inner) }
    }))
    .await;
    for answer in &paid {
        assert!(answer.is_ok(), "{answer:?}");
    }
    assert_eq!(movements(&app, &friend, "referral").await, vec![500]);
    assert_eq!(movements(&app, &inviter, "referral").await, vec![500]);
    assert_eq!(reward(&app, &friend).await.0, "paid");
    // A later purchase earns nothing more.
    pays(&app, &friend).await;
    assert_eq!(movements(&app, &friend, "referral").await, vec![500]);

    // The purchase the reward was decided on is refunded: both credits are taken back, once.
    let mut conn = testing::connect(&app.service.database_url).await;
    let first = sqlx::query_scalar!(
        "SELECT purchase_id FROM referral_rewards WHERE referred_id = $1",
        user_of(&friend)
    )
    .fetch_one(&mut conn)
    .await
    .unwrap()
    .expect("the purchase the reward was decided on");
    for _ in 0..2 {
        let message = Uuid::now_v7();
        app.service
            .publish(
                &StorageExtensionRefused {
                    purchase_id: first.to_string(),
                    folder_id: Uuid::now_v7().to_string(),
                    owner_id: friend.user_id.clone(),
                    reason: "The folder was deleted.".to_owned(),
                },
                message,
            )
            .await;
        app.service.wait_processed(message).await;
    }
    assert_eq!(
        movements(&app, &friend, "referral_reversal").await,
        vec![-500]
    );
    assert_eq!(
        movements(&app, &inviter, "referral_reversal").await,
        vec![-500]
    );
    // What is left is the first card's $0.50 authorisation credit.
    assert_eq!(app.balance(&inviter).await, 50);
    assert_eq!(reward(&app, &friend).await.0, "reversed");
    app.stop().await;
}

#[tokio::test]
async fn a_referral_told_after_the_first_payment_is_rewarded_when_it_arrives() {
    let app = TestApp::spawn().await;
    let (inviter, friend) = (account_created(), account_created());
    app.saved_card(&inviter, OK_CARD).await;
    app.saved_card(&friend, FRIEND_CARD).await;
    pays(&app, &friend).await;
    assert!(movements(&app, &friend, "referral").await.is_empty());

    referred(&app, &friend, &inviter).await;
    assert_eq!(movements(&app, &friend, "referral").await, vec![500]);
    assert_eq!(movements(&app, &inviter, "referral").await, vec![500]);
    app.stop().await;
}

#[tokio::test]
async fn the_inviters_own_card_is_a_self_referral_and_earns_nothing() {
    let app = TestApp::spawn().await;
    let (inviter, friend) = (account_created(), account_created());
    app.saved_card(&inviter, OK_CARD).await;
    // The "friend" pays with a card of the inviter's.
    app.saved_card(&friend, OK_CARD).await;
    referred(&app, &friend, &inviter).await;
    pays(&app, &friend).await;

    assert!(movements(&app, &friend, "referral").await.is_empty());
    assert!(movements(&app, &inviter, "referral").await.is_empty());
    assert_eq!(
        reward(&app, &friend).await,
        (
            "refused".to_owned(),
            "The friend and the inviter registered the same card.".to_owned()
        )
    );
    app.stop().await;
}

#[tokio::test]
async fn one_card_behind_two_friends_is_held_for_review_and_paid_once_released() {
    let app = TestApp::spawn().await;
    let inviter = account_created();
    let (first, second) = (account_created(), account_created());
    app.saved_card(&inviter, OK_CARD).await;
    for friend in [&first, &second] {
        app.saved_card(friend, FRIEND_CARD).await;
        referred(&app, friend, &inviter).await;
        pays(&app, friend).await;
    }
    assert_eq!(reward(&app, &first).await.0, "paid");
    assert_eq!(reward(&app, &second).await.0, "held");
    assert!(movements(&app, &second, "referral").await.is_empty());
    assert_eq!(movements(&app, &inviter, "referral").await, vec![500]);

    // The operator releases it (`payments referral-rewards release`): paid as any other, once.
    // An id with no held reward (a typo) is answered as such.
    let mut conn = testing::connect(&app.service.database_url).await;
    for (friend, expected) in [
        (user_of(&second), true),
        (user_of(&second), false),
        (Uuid::now_v7(), false),
    ] {
        let mut tx = sqlx::Connection::begin(&mut conn).await.unwrap();
        let released = payments::app::rewards::review(&mut tx, &app.config.pricing, friend, true)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(released, expected);
    }
    assert_eq!(movements(&app, &second, "referral").await, vec![500]);
    assert_eq!(movements(&app, &inviter, "referral").await, vec![500, 500]);
    app.stop().await;
}

#[tokio::test]
async fn past_the_monthly_cap_the_friend_alone_is_paid() {
    let app = TestApp::spawn_with(|config| config.pricing.referral_monthly_cap = 1).await;
    let inviter = account_created();
    app.saved_card(&inviter, OK_CARD).await;
    for (friend, card) in [
        (account_created(), FRIEND_CARD),
        (account_created(), OTHER_CARD),
    ] {
        app.saved_card(&friend, card).await;
        referred(&app, &friend, &inviter).await;
        pays(&app, &friend).await;
        assert_eq!(movements(&app, &friend, "referral").await, vec![500]);
    }
    assert_eq!(movements(&app, &inviter, "referral").await, vec![500]);
    app.stop().await;
}
