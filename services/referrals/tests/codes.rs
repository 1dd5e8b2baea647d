//! Each user's own referral code, made by the AccountCreated event, against the real PostgreSQL
//! and RabbitMQ.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

use std::time::Duration;

use evidentia_common::{
    amqp,
    grpc::Caller,
    service::{Service, test_config},
    testing,
};
use evidentia_proto::{
    Event,
    events::v1::AccountCreated,
    referrals::v1::{self as pb, referrals_service_client::ReferralsServiceClient},
};
use lapin::{Channel, Connection, options::BasicPublishOptions};
use prost::Message;
use referrals::{ReferralsService, config::Config};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tonic::Code;
use uuid::Uuid;

const WAIT: Duration = Duration::from_secs(15);
const ALPHABET: &str = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

struct TestApp {
    client: ReferralsServiceClient<tonic::transport::Channel>,
    config: Config,
    _connection: Connection,
    publisher: Channel,
    shutdown: CancellationToken,
    server: JoinHandle<anyhow::Result<()>>,
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
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let server = tokio::spawn(<ReferralsService as Service>::run(
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
            client: ReferralsServiceClient::new(channel),
            config,
            _connection: connection,
            publisher,
            shutdown,
            server,
        };
        // The listener is bound before the migrations run; the first call waits for the server.
        let call = app.client.get_referral_info(pb::GetReferralInfoRequest {});
        tokio::select! {
            result = call => assert_eq!(result.unwrap_err().code(), Code::Unauthenticated),
            exit = &mut app.server => panic!("the referrals service stopped: {exit:?}"),
        }
        app
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.server.await.unwrap().unwrap();
    }

    /// Publishes the event as the outbox relay of accounts does, once the consumer's queue is
    /// bound (the service declares it when it starts).
    async fn publish(&self, event: &AccountCreated, message_id: Uuid) {
        let payload = event.encode_to_vec();
        let exchange = self.config.service.amqp.exchange.as_str();
        testing::eventually("the referrals queue to be bound", WAIT, || async {
            let confirmation = self
                .publisher
                .basic_publish(
                    exchange.into(),
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

    /// The codes stored for `user_id` (read directly: GetReferralInfo would make one).
    async fn stored_codes(&self, user_id: Uuid) -> Vec<String> {
        let mut conn = testing::connect(&self.config.service.database_url).await;
        sqlx::query_scalar("SELECT code FROM referral_codes WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(&mut conn)
            .await
            .unwrap()
    }

    async fn processed(&self, message_id: Uuid) -> bool {
        let mut conn = testing::connect(&self.config.service.database_url).await;
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM processed_events WHERE event_id = $1)")
            .bind(message_id)
            .fetch_one(&mut conn)
            .await
            .unwrap()
    }

    async fn info(&self, user_id: Uuid) -> pb::ReferralInfo {
        self.client
            .clone()
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
