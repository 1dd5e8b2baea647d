//! Idempotent consumers against the real PostgreSQL and RabbitMQ: a repeated delivery is
//! handled once, a failing handler is retried and then dead-lettered (on quorum queues too, the
//! kind the chart declares), and a message that cannot be decoded is dead-lettered at once.

use std::sync::{Arc, Mutex};

use crate::support::{WAIT, account_created, database, publish_routed, publish_until_routed};
use async_trait::async_trait;
use evidentia_common::{
    amqp,
    config::AmqpConfig,
    consumer::{Consumers, EventMeta, Handler},
    testing,
};
use evidentia_proto::{Event, events::v1::AccountCreated};
use lapin::{
    Channel,
    options::QueueDeclareOptions,
    types::{AMQPValue, FieldTable},
};
use prost::Message;
use sqlx::{PgConnection, PgPool};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const SERVICE: &str = "common-test";
const NAME: &str = "record";

/// Records every call and writes a row in the handler's transaction; fails while the attempt is
/// below `fail_below`.
#[derive(Clone)]
struct Recorder {
    calls: Arc<Mutex<Vec<(Uuid, i64)>>>,
    fail_below: i64,
}

impl Recorder {
    fn new(fail_below: i64) -> Self {
        Self {
            calls: Arc::default(),
            fail_below,
        }
    }

    fn calls(&self) -> Vec<(Uuid, i64)> {
        self.calls.lock().unwrap().clone()
    }

    fn attempts_at(&self, id: Uuid) -> Vec<i64> {
        self.calls()
            .into_iter()
            .filter(|(call, _)| *call == id)
            .map(|(_, attempt)| attempt)
            .collect()
    }
}

#[async_trait]
impl Handler<AccountCreated> for Recorder {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        meta: &EventMeta,
    ) -> anyhow::Result<()> {
        self.calls.lock().unwrap().push((meta.id, meta.attempt));
        sqlx::query("INSERT INTO handled (event_id, username) VALUES ($1, $2)")
            .bind(meta.id)
            .bind(&event.username)
            .execute(conn)
            .await?;
        if meta.attempt < self.fail_below {
            anyhow::bail!("the handler fails on attempt {}", meta.attempt);
        }
        Ok(())
    }
}

struct Harness {
    pool: PgPool,
    config: AmqpConfig,
    channel: Channel,
    _connection: lapin::Connection,
    recorder: Recorder,
    shutdown: CancellationToken,
    consumers: JoinHandle<()>,
}

impl Harness {
    async fn start(recorder: Recorder) -> Self {
        Self::start_with(recorder, false).await
    }

    /// With `quorum`, the consumer declares quorum queues (the chart's `AMQP_QUEUE_TYPE`).
    async fn start_with(recorder: Recorder, quorum: bool) -> Self {
        let (_url, pool) = database().await;
        // No migration knows this test's own `handled` table, so its queries are text, not query!.
        sqlx::query("CREATE TABLE handled (event_id uuid NOT NULL, username text NOT NULL)")
            .execute(&pool)
            .await
            .unwrap();
        let config = AmqpConfig {
            quorum_queues: quorum,
            ..testing::amqp_config()
        };
        let shutdown = CancellationToken::new();
        let consumers = Consumers::new(SERVICE, pool.clone(), config.clone())
            .on::<AccountCreated, _>(NAME, recorder.clone());
        let consumers = tokio::spawn(consumers.run(shutdown.clone()));
        let (connection, channel) = amqp::open_channel(&config, "test-publisher").await.unwrap();
        Self {
            pool,
            config,
            channel,
            _connection: connection,
            recorder,
            shutdown,
            consumers,
        }
    }

    fn queue(&self) -> String {
        format!("{}.{SERVICE}.{NAME}", self.config.exchange)
    }

    fn dlq(&self) -> String {
        format!("{}.dlq", self.queue())
    }

    async fn publish(&self, id: Uuid, payload: &[u8]) {
        publish_routed(
            &self.channel,
            &self.config,
            AccountCreated::ROUTING_KEY,
            id,
            payload,
        )
        .await;
    }

    async fn handled_rows(&self, id: Uuid) -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM handled WHERE event_id = $1")
            .bind(id)
            .fetch_one(&self.pool)
            .await
            .unwrap()
    }

    async fn processed(&self, id: Uuid) -> bool {
        sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2)",
        )
        .bind(format!("{SERVICE}.{NAME}"))
        .bind(id)
        .fetch_one(&self.pool)
        .await
        .unwrap()
    }

    async fn wait_processed(&self, id: Uuid) {
        testing::eventually("the event to be processed", WAIT, || async {
            self.processed(id).await.then_some(())
        })
        .await;
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.consumers.await.unwrap();
    }
}

#[tokio::test]
async fn an_event_delivered_twice_with_the_same_id_is_handled_once() {
    let app = Harness::start(Recorder::new(0)).await;
    let event = account_created("twice").encode_to_vec();
    let id = Uuid::now_v7();
    app.publish(id, &event).await;
    app.publish(id, &event).await;
    // The queue is handled in order: once the next event is processed, both copies were.
    let next = Uuid::now_v7();
    app.publish(next, &account_created("next").encode_to_vec())
        .await;
    app.wait_processed(next).await;

    assert_eq!(
        app.recorder.attempts_at(id),
        vec![0],
        "the handler ran once for the event"
    );
    assert_eq!(app.handled_rows(id).await, 1);
    assert!(app.processed(id).await);
    app.stop().await;
}

#[tokio::test]
async fn a_failing_handler_is_retried_and_dead_lettered_after_max_attempts() {
    let app = Harness::start(Recorder::new(i64::MAX)).await;
    let payload = account_created("failing").encode_to_vec();
    let id = Uuid::now_v7();
    app.publish(id, &payload).await;

    let dead = testing::next_from(&app.channel, &app.dlq()).await;
    let max_attempts = i64::from(app.config.max_attempts);
    assert_eq!(
        dead.properties.message_id().as_ref().map(|v| v.to_string()),
        Some(id.to_string())
    );
    assert_eq!(
        dead.properties.kind().as_ref().map(|v| v.to_string()),
        Some(AccountCreated::TYPE_NAME.to_owned())
    );
    assert_eq!(amqp::attempt(&dead.properties), max_attempts);
    assert_eq!(dead.data, payload);
    assert_eq!(
        app.recorder.attempts_at(id),
        (0..max_attempts).collect::<Vec<_>>(),
        "one call per attempt"
    );
    assert_eq!(
        app.handled_rows(id).await,
        0,
        "a failed attempt's writes are rolled back"
    );
    assert!(
        !app.processed(id).await,
        "a failed event is not recorded as processed"
    );
    app.stop().await;
}

#[tokio::test]
async fn on_quorum_queues_a_failing_handler_is_retried_and_dead_lettered_too() {
    let app = Harness::start_with(Recorder::new(i64::MAX), true).await;
    let id = Uuid::now_v7();
    app.publish(id, &account_created("quorum").encode_to_vec())
        .await;
    let dead = testing::next_from(&app.channel, &app.dlq()).await;
    let max_attempts = i64::from(app.config.max_attempts);
    assert_eq!(amqp::attempt(&dead.properties), max_attempts);
    assert_eq!(
        app.recorder.attempts_at(id),
        (0..max_attempts).collect::<Vec<_>>(),
        "one call per attempt, through the retry queue's message TTL"
    );

    // The queue is a quorum queue: its declaration is accepted again as a quorum queue's and
    // refused as a classic one's, all else the same.
    let declare = |kind: &'static str| {
        let text = |s: &str| AMQPValue::LongString(s.to_owned().into());
        let mut args = FieldTable::default();
        for (key, value) in [
            (
                "x-expires",
                AMQPValue::LongLongInt(i64::from(app.config.queue_expires_ms.unwrap_or_default())),
            ),
            ("x-dead-letter-exchange", text("")),
            ("x-dead-letter-routing-key", text(&app.dlq())),
            ("x-queue-type", text(kind)),
        ] {
            args.insert(key.into(), value);
        }
        let (config, queue) = (app.config.clone(), app.queue());
        async move {
            let (_connection, channel) = amqp::open_channel(&config, "test-kind").await.unwrap();
            let durable = QueueDeclareOptions {
                durable: true,
                ..QueueDeclareOptions::default()
            };
            channel
                .queue_declare(queue.as_str().into(), durable, args)
                .await
                .map(|_| ())
        }
    };
    let again = declare("quorum").await;
    assert!(again.is_ok(), "{again:?}");
    let classic = declare("classic").await;
    assert!(classic.is_err(), "{classic:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_handler_that_fails_once_succeeds_on_the_retry() {
    let app = Harness::start(Recorder::new(1)).await;
    let id = Uuid::now_v7();
    app.publish(id, &account_created("flaky").encode_to_vec())
        .await;
    app.wait_processed(id).await;

    assert_eq!(app.recorder.attempts_at(id), vec![0, 1]);
    assert_eq!(
        app.handled_rows(id).await,
        1,
        "only the successful attempt's writes remain"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_undecodable_payload_is_dead_lettered_without_retries() {
    let app = Harness::start(Recorder::new(0)).await;
    // Field 1 announces five bytes and carries one: not an AccountCreated.
    let garbage = [0x0a, 0x05, 0x01];
    assert!(AccountCreated::decode(garbage.as_slice()).is_err());
    let id = Uuid::now_v7();
    app.publish(id, &garbage).await;

    let dead = testing::next_from(&app.channel, &app.dlq()).await;
    assert_eq!(
        dead.properties.message_id().as_ref().map(|v| v.to_string()),
        Some(id.to_string())
    );
    assert_eq!(dead.data, garbage);
    assert_eq!(
        amqp::attempt(&dead.properties),
        0,
        "a poison message is not retried"
    );
    assert!(app.recorder.calls().is_empty(), "the handler never saw it");
    assert!(!app.processed(id).await);
    app.stop().await;
}

#[tokio::test]
async fn an_event_without_a_message_id_is_dead_lettered() {
    let app = Harness::start(Recorder::new(0)).await;
    let payload = account_created("anonymous").encode_to_vec();
    publish_until_routed(
        &app.channel,
        &app.config.exchange,
        AccountCreated::ROUTING_KEY,
        &payload,
        || {
            amqp::properties(
                "not-a-uuid",
                AccountCreated::TYPE_NAME,
                &Default::default(),
                0,
            )
        },
    )
    .await;

    let dead = testing::next_from(&app.channel, &app.dlq()).await;
    assert_eq!(dead.data, payload);
    assert!(app.recorder.calls().is_empty());
    app.stop().await;
}
