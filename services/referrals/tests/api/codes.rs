//! Each user's own referral code, made by the AccountCreated event, against the real PostgreSQL
//! and RabbitMQ.

use evidentia_common::{
    grpc::Caller,
    service::test_config,
    testing::{self, Spawned, WAIT},
};
use evidentia_proto::{
    events::v1::AccountCreated,
    referrals::v1::{self as pb, referrals_service_client::ReferralsServiceClient},
};
use referrals::{ReferralsService, config::Config};
use uuid::Uuid;

const ALPHABET: &str = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

struct TestApp {
    service: Spawned,
}

fn as_user(user_id: Uuid) -> Caller {
    Caller {
        user_id: Some(user_id),
        ..Caller::default()
    }
}

fn account_created(user_id: Uuid) -> AccountCreated {
    AccountCreated {
        user_id: user_id.to_string(),
        username: format!("u{}", &user_id.simple().to_string()[20..]),
        email: format!("{}@example.com", user_id.simple()),
        account_type: "individual".to_owned(),
        ..AccountCreated::default()
    }
}

impl TestApp {
    async fn spawn() -> Self {
        let config = Config {
            service: test_config("referrals").await,
        };
        Self {
            service: Spawned::start::<ReferralsService>(config).await,
        }
    }

    async fn stop(self) {
        self.service.stop().await;
    }

    async fn publish(&self, event: &AccountCreated, message_id: Uuid) {
        self.service.publish(event, message_id).await;
    }

    /// The codes stored for `user_id` (read directly: GetReferralInfo would make one).
    async fn stored_codes(&self, user_id: Uuid) -> Vec<String> {
        let mut conn = testing::connect(&self.service.database_url).await;
        sqlx::query_scalar!(
            "SELECT code FROM referral_codes WHERE user_id = $1",
            user_id
        )
        .fetch_all(&mut conn)
        .await
        .unwrap()
    }

    async fn processed(&self, message_id: Uuid) -> bool {
        self.service.processed(message_id).await
    }

    async fn info(&self, user_id: Uuid) -> pb::ReferralInfo {
        ReferralsServiceClient::new(self.service.channel.clone())
            .get_referral_info(as_user(user_id).request(pb::GetReferralInfoRequest {}))
            .await
            .unwrap()
            .into_inner()
    }
}

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
