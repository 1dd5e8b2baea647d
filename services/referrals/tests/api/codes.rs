//! Each user's own referral code, made by the AccountCreated event, against the real PostgreSQL
//! and RabbitMQ.

use evidentia_common::testing::{self, WAIT};
use uuid::Uuid;

use crate::helpers::{TestApp, account_created};

const ALPHABET: &str = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

#[tokio::test]
async fn account_created_gives_the_user_a_referral_code() {
    let app = TestApp::spawn().await;
    let user_id = Uuid::now_v7();
    app.publish(&account_created(user_id), Uuid::now_v7()).await;

    let code = testing::eventually("the user's referral code", WAIT, || async {
        app.stored_codes(user_id).await.pop()
    })
    .await;
    assert_eq!(code.len(), 8);
    assert!(
        code.chars().all(|c| ALPHABET.contains(c)),
        "{code} uses only unambiguous characters"
    );
    let info = app.info(user_id).await;
    assert_eq!(info.code, code);
    assert_eq!(info.r#type, "individual");
    assert_eq!(
        app.info(user_id).await.code,
        code,
        "asking again gives the same code"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_code_stays_the_same_when_the_event_is_delivered_again() {
    let app = TestApp::spawn().await;
    let user_id = Uuid::now_v7();
    let event = account_created(user_id);
    let message_id = Uuid::now_v7();
    app.publish(&event, message_id).await;
    testing::eventually("the first delivery to be processed", WAIT, || async {
        app.processed(message_id).await.then_some(())
    })
    .await;
    let code = app.info(user_id).await.code;

    app.publish(&event, message_id).await;
    // The same announcement under another message id (a replay) also keeps the code; it is
    // processed after the repeat above, so once it is, both were.
    let replay = Uuid::now_v7();
    app.publish(&event, replay).await;
    testing::eventually("the replay to be processed", WAIT, || async {
        app.processed(replay).await.then_some(())
    })
    .await;

    assert_eq!(app.stored_codes(user_id).await, vec![code.clone()]);
    assert_eq!(app.info(user_id).await.code, code);
    app.stop().await;
}

#[tokio::test]
async fn users_get_different_codes() {
    let app = TestApp::spawn().await;
    let (ann, bob) = (Uuid::now_v7(), Uuid::now_v7());
    let ann_code = app.info(ann).await.code;
    let bob_code = app.info(bob).await.code;
    assert_ne!(ann_code, bob_code);
    assert_eq!(app.info(ann).await.code, ann_code);
    app.stop().await;
}
