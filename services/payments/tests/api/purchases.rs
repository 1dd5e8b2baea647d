//! Purchases paid from the wallet or by card, through the steps of `app::pay`.

use std::time::Duration;

use evidentia_common::testing::{self, OK_CARD};
use evidentia_proto::payments::v1 as pb;
use uuid::Uuid;

use crate::helpers::{TestApp, account_created, as_user, extension, user_of};

#[tokio::test]
async fn retries_racing_with_one_key_make_one_purchase_and_one_answer() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let card = app.saved_card(&user, OK_CARD).await;
    // $25.00 and the first card's $0.50 authorisation kept as credit.
    assert_eq!(app.wallet(&user, &card, 2500).await, 2550);

    let folder = Uuid::now_v7();
    let key = Uuid::new_v4().to_string();
    let answers = futures::future::join_all((0..5).map(|_| {
        let mut client = app.client();
        let request = caller.request(extension(folder, "wallet", &key));
        async move { client.pay(request).await.map(tonic::Response::into_inner) }
    }))
    .await;
    let first = answers[0].as_ref().expect("paid").clone();
    for answer in &answers {
        assert_eq!(answer.as_ref().expect("paid"), &first);
    }
    // Every answer, the retries' read back from the key, carries the balance the debit left.
    let account = first.stored_account.clone().expect("account");
    assert_eq!(account.balance, 2550 - 704);
    assert!(account.active);
    let transaction = first.transaction.expect("transaction");
    // 3 months of a small folder: $5.97, a 20% service fee less the wallet's 10% saving on it.
    assert_eq!(transaction.paid_from_wallet, 597 + 119 - 12);
    assert_eq!(transaction.charged_to_card, 0);

    let list = app
        .client()
        .list_transactions(caller.request(pb::ListTransactionsRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.transactions.len(), 1, "{:?}", list.transactions);
    let balance = app
        .client()
        .get_wallet(caller.request(pb::GetWalletRequest {}))
        .await
        .unwrap()
        .into_inner()
        .balance;
    assert_eq!(balance, 2550 - 704);

    // The same key with another request is refused; nothing moves.
    let other = app
        .client()
        .pay(caller.request(extension(Uuid::now_v7(), "wallet", &key)))
        .await
        .unwrap_err();
    assert_eq!(other.code(), tonic::Code::AlreadyExists);
    app.stop().await;
}

#[tokio::test]
async fn a_card_purchase_charges_the_default_card_and_leaves_the_wallet_alone() {
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    app.saved_card(&user, OK_CARD).await;
    let paid = app
        .client()
        .pay(caller.request(extension(Uuid::now_v7(), "card", "card-key-1")))
        .await
        .unwrap()
        .into_inner();
    let transaction = paid.transaction.expect("transaction");
    assert_eq!(transaction.paid_from_wallet, 0);
    // By card: the card total, with the processing fee.
    assert_eq!(transaction.charged_to_card, transaction.amount_paid);
    // EVD-<year>-<at least six digits>.
    let number = transaction.transaction_number.clone();
    let year = chrono::Utc::now().format("%Y").to_string();
    let digits = number
        .strip_prefix(&format!("EVD-{year}-"))
        .unwrap_or_else(|| panic!("{number}"));
    assert!(
        digits.len() >= 6 && digits.bytes().all(|b| b.is_ascii_digit()),
        "{number}"
    );
    // Only the first card's $0.50 authorisation is in the wallet.
    assert_eq!(paid.stored_account.expect("account").balance, 50);
    app.stop().await;
}

#[tokio::test]
async fn card_purchases_in_flight_beyond_the_pool_each_charge_and_record_once() {
    // More purchases at Stripe at once than the service has database connections: each keeps to
    // the one connection that holds its key, so none waits for a second one that never comes.
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    app.saved_card(&user, OK_CARD).await;
    let answers = futures::future::join_all((0..14).map(|n| {
        let mut client = app.client();
        let request = caller.request(extension(Uuid::now_v7(), "card", &format!("card-{n}")));
        async move { client.pay(request).await.map(tonic::Response::into_inner) }
    }))
    .await;
    for answer in &answers {
        let transaction = answer.as_ref().expect("paid").transaction.as_ref().unwrap();
        assert_eq!(transaction.charged_to_card, transaction.amount_paid);
    }
    let list = app
        .client()
        .list_transactions(caller.request(pb::ListTransactionsRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.transactions.len(), 14);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_purchases_from_one_wallet_are_planned_one_after_the_other() {
    // spec §4: the balance pays first and one card charge covers a shortfall. Eight purchases of
    // $7.04 at once against $10.50: each sees what the one before debited or charged, so every
    // one is paid, and the wallet card is charged only when the balance is short.
    let app = TestApp::spawn().await;
    let user = account_created();
    let caller = as_user(user_of(&user));
    let card = app.saved_card(&user, OK_CARD).await;
    assert_eq!(app.wallet(&user, &card, 1000).await, 1050);
    let answers = futures::future::join_all((0..8).map(|n| {
        let mut client = app.client();
        let request = caller.request(extension(Uuid::now_v7(), "wallet", &format!("w-{n}")));
        async move { client.pay(request).await.map(tonic::Response::into_inner) }
    }))
    .await;
    for answer in &answers {
        let transaction = answer.as_ref().expect("paid").transaction.as_ref().unwrap();
        assert_eq!(transaction.paid_from_wallet, 704);
    }
    let balance = app
        .client()
        .get_wallet(caller.request(pb::GetWalletRequest {}))
        .await
        .unwrap()
        .into_inner()
        .balance;
    // Every card charge (a $10.00 transfer when short, or a $10.00 auto top-up under $5.00) is in
    // the balance exactly once, and none was made that was not needed: a transfer leaves less
    // than $10.00, a top-up less than $15.00.
    let charged = balance - 1050 + 8 * 704;
    assert_eq!(charged % 1000, 0, "balance {balance}");
    assert!((0..1500).contains(&balance), "balance {balance}");
    app.stop().await;
}

#[tokio::test]
async fn purchases_run_beside_others_unless_a_card_charge_counts_on_the_balance() {
    // The user's wallet-purchase lock held shared, as a purchase in flight holds it. Purchases the
    // balance covers complete meanwhile (the wallet row is locked only for their debits), and so
    // does one whose card charge covers its whole total; one whose charge counts on the balance it
    // read waits until that purchase has committed.
    let app = TestApp::spawn().await;
    let user = account_created();
    let user_id = user_of(&user);
    let caller = as_user(user_id);
    let card = app.saved_card(&user, OK_CARD).await;
    assert_eq!(app.wallet(&user, &card, 1000).await, 1050);

    let mut conn = testing::connect(&app.service.database_url).await;
    let mut in_flight = sqlx::Connection::begin(&mut conn).await.unwrap();
    sqlx::query!(
        "SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))",
        format!("wallet-purchase:{user_id}")
    )
    .fetch_one(&mut *in_flight)
    .await
    .unwrap();

    let pay = |key: &'static str, months: i32| {
        let mut client = app.client();
        let request = caller.request(pb::PayRequest {
            months,
            ..extension(Uuid::now_v7(), "wallet", key)
        });
        async move { client.pay(request).await.map(tonic::Response::into_inner) }
    };
    let beside =
        "a purchase that does not count on the balance does not wait for the one in flight";
    // $10.50 - $7.04 = $3.46, under $5.00: the auto top-up adds $10.00 after the commit.
    let first = tokio::time::timeout(Duration::from_secs(10), pay("beside-1", 3))
        .await
        .expect(beside)
        .expect("paid");
    assert_eq!(first.stored_account.expect("account").balance, 346);
    // $13.46 - $7.04 = $6.42: no top-up.
    let second = tokio::time::timeout(Duration::from_secs(10), pay("beside-2", 3))
        .await
        .expect(beside)
        .expect("paid");
    assert_eq!(second.stored_account.expect("account").balance, 642);
    // $6.42 does not cover $7.04: the wallet card is charged the larger of the $0.62 shortfall and
    // the $10.00 auto top-up amount, which covers the whole $7.04.
    let third = tokio::time::timeout(Duration::from_secs(10), pay("beside-3", 3))
        .await
        .expect(beside)
        .expect("paid");
    assert_eq!(
        third.transaction.expect("transaction").charged_to_card,
        1000
    );
    assert_eq!(
        third.stored_account.expect("account").balance,
        642 + 1000 - 704
    );

    // Twelve months cost more than the $9.38 left and the $10.00 auto top-up amount together: the
    // charge is the shortfall, which counts on the balance, so this one waits.
    let short = tokio::spawn(pay("alone-1", 12));
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(
        !short.is_finished(),
        "a purchase whose card charge counts on the balance waits for the purchases in flight"
    );
    in_flight.rollback().await.unwrap();
    let fourth = tokio::time::timeout(Duration::from_secs(10), short)
        .await
        .expect("it goes on once the purchase in flight has ended")
        .expect("joined")
        .expect("paid");
    let total = fourth.transaction.expect("transaction").paid_from_wallet;
    assert!(total > 938 + 1000, "twelve months cost {total}");
    // The shortfall was charged into the wallet and the whole total debited from it.
    assert_eq!(fourth.stored_account.expect("account").balance, 0);
    let charges = sqlx::query_scalar!(
        "SELECT amount_cents FROM payment_intents WHERE user_id = $1 AND purpose = 'shortfall' ORDER BY created_at",
        user_id
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    assert_eq!(charges, vec![1000, total - 938]);
    app.stop().await;
}
