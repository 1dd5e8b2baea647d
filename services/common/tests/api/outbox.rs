//! The transactional outbox against the real PostgreSQL and RabbitMQ: what a committed
//! transaction enqueues reaches the exchange exactly as the consumers expect it, nothing of a
//! rolled-back transaction does, and nothing is lost while the broker is away.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use crate::support::{WAIT, account_created, database, outbox_rows};
use evidentia_common::{
    amqp,
    config::{AmqpConfig, SecretString},
    outbox, testing,
};
use evidentia_proto::{Event, events::v1::AccountCreated};
use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry_sdk::{propagation::TraceContextPropagator, trace::SdkTracerProvider};
use prost::Message;
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;

/// Records spans with OpenTelemetry (no export) and propagates W3C trace context, as a service
/// with telemetry on does.
fn trace_with_opentelemetry() -> (tracing::subscriber::DefaultGuard, SdkTracerProvider) {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let provider = SdkTracerProvider::builder().build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("outbox-test")));
    (tracing::subscriber::set_default(subscriber), provider)
}

/// A running relay, as a service runs it.
struct Relay {
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Relay {
    fn start(pool: &PgPool, config: &AmqpConfig, broker_up: Arc<AtomicBool>) -> Self {
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(outbox::run_relay(
            pool.clone(),
            config.clone(),
            shutdown.clone(),
            broker_up,
        ));
        Self { shutdown, task }
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.task.await.unwrap();
    }
}

#[tokio::test]
async fn a_committed_event_is_published_with_its_id_type_and_trace_then_leaves_the_outbox() {
    let (_tracing, _provider) = trace_with_opentelemetry();
    let (_url, pool) = database().await;
    let config = testing::amqp_config();
    let observer = testing::Observer::bind(&config, AccountCreated::ROUTING_KEY).await;
    let event = account_created("ann");

    let span = tracing::info_span!("sign-up");
    let trace_id = span.context().span().span_context().trace_id().to_string();
    let id = async {
        let mut tx = pool.begin().await.unwrap();
        let id = outbox::enqueue(&mut tx, &event).await.unwrap();
        tx.commit().await.unwrap();
        id
    }
    .instrument(span)
    .await;
    assert_eq!(
        outbox_rows(&pool).await,
        1,
        "the event waits in the outbox until a relay runs"
    );

    let relay = Relay::start(&pool, &config, Default::default());
    let message = observer.next().await;

    let properties = &message.properties;
    assert_eq!(message.routing_key.as_str(), AccountCreated::ROUTING_KEY);
    assert_eq!(
        properties.message_id().as_ref().map(|v| v.as_str()),
        Some(id.to_string().as_str())
    );
    assert_eq!(
        properties.kind().as_ref().map(|v| v.as_str()),
        Some(AccountCreated::TYPE_NAME)
    );
    assert_eq!(
        properties.delivery_mode(),
        &Some(2),
        "events are persistent"
    );
    assert_eq!(
        AccountCreated::decode(message.data.as_slice()).unwrap(),
        event
    );
    let headers = amqp::string_headers(properties);
    let traceparent = headers.get("traceparent").expect("a traceparent header");
    assert!(
        traceparent.contains(&trace_id),
        "traceparent {traceparent} continues the trace {trace_id} of the enqueuing span"
    );
    assert_eq!(amqp::attempt(properties), 0);

    testing::eventually("the confirmed event to leave the outbox", WAIT, || async {
        (outbox_rows(&pool).await == 0).then_some(())
    })
    .await;
    relay.stop().await;
}

#[tokio::test]
async fn a_rolled_back_transaction_publishes_nothing() {
    let (_url, pool) = database().await;
    let config = testing::amqp_config();
    let observer = testing::Observer::bind(&config, AccountCreated::ROUTING_KEY).await;

    let mut tx = pool.begin().await.unwrap();
    outbox::enqueue(&mut tx, &account_created("rolled-back"))
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    // Published after the rolled-back one: once it arrives, the other would have arrived first.
    let mut tx = pool.begin().await.unwrap();
    let marker = outbox::enqueue(&mut tx, &account_created("committed"))
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let relay = Relay::start(&pool, &config, Default::default());
    let first = observer.next().await;
    assert_eq!(
        first
            .properties
            .message_id()
            .as_ref()
            .map(|v| v.as_str().to_owned()),
        Some(marker.to_string())
    );
    assert_eq!(
        AccountCreated::decode(first.data.as_slice())
            .unwrap()
            .username,
        "committed"
    );
    assert!(
        observer.try_next().await.is_none(),
        "the rolled-back event was published"
    );
    testing::eventually("the outbox to empty", WAIT, || async {
        (outbox_rows(&pool).await == 0).then_some(())
    })
    .await;
    relay.stop().await;
}

/// A port where the broker should be but which hangs up on every connection; counts attempts.
async fn unreachable_broker() -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let attempts = Arc::new(AtomicUsize::new(0));
    let counter = attempts.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(socket);
        }
    });
    (port, attempts)
}

#[tokio::test]
async fn events_stay_in_the_outbox_while_the_broker_is_unreachable_and_are_published_later() {
    let (_url, pool) = database().await;
    let config = testing::amqp_config();
    let observer = testing::Observer::bind(&config, AccountCreated::ROUTING_KEY).await;
    let mut ids = Vec::new();
    for name in ["first", "second", "third"] {
        let mut tx = pool.begin().await.unwrap();
        ids.push(
            outbox::enqueue(&mut tx, &account_created(name))
                .await
                .unwrap(),
        );
        tx.commit().await.unwrap();
    }

    let (port, attempts) = unreachable_broker().await;
    let mut broken = config.clone();
    broken.url = SecretString::from(format!("amqp://guest:guest@127.0.0.1:{port}/%2f"));
    let broker_up = Arc::new(AtomicBool::new(false));
    let relay = Relay::start(&pool, &broken, broker_up.clone());
    testing::eventually("the relay to try the broker twice", WAIT, || async {
        (attempts.load(Ordering::SeqCst) >= 2).then_some(())
    })
    .await;
    assert!(
        !broker_up.load(Ordering::SeqCst),
        "readiness must not see a broker the relay cannot reach"
    );
    assert_eq!(
        outbox_rows(&pool).await,
        3,
        "events left the outbox without a broker"
    );
    assert!(observer.try_next().await.is_none());
    relay.stop().await;

    let relay = Relay::start(&pool, &config, Default::default());
    let mut published = Vec::new();
    for _ in 0..3 {
        let message = observer.next().await;
        published.push(
            message
                .properties
                .message_id()
                .as_ref()
                .map(|v| v.as_str().to_owned())
                .unwrap(),
        );
    }
    let expected: Vec<String> = ids.iter().map(ToString::to_string).collect();
    assert_eq!(published, expected, "every event is published, in order");
    testing::eventually("the outbox to empty", WAIT, || async {
        (outbox_rows(&pool).await == 0).then_some(())
    })
    .await;
    relay.stop().await;
}

/// The relay, started on an empty outbox, after it has read nothing for long enough to wait its
/// longest between reads; its database, and an observer of what it publishes.
async fn idle_relay() -> (PgPool, testing::Observer, Relay) {
    let (_url, pool) = database().await;
    let config = testing::amqp_config();
    let observer = testing::Observer::bind(&config, AccountCreated::ROUTING_KEY).await;
    let relay = Relay::start(&pool, &config, Default::default());
    tokio::time::sleep(Duration::from_secs(3)).await;
    (pool, observer, relay)
}

#[tokio::test]
async fn an_event_committed_while_the_relay_waits_is_published_at_once() {
    let (pool, observer, relay) = idle_relay().await;

    let mut tx = pool.begin().await.unwrap();
    let id = outbox::enqueue(&mut tx, &account_created("woken"))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let committed = Instant::now();
    let message = observer.next().await;
    // Idle, the relay reads every 2 s: this one was woken by the enqueue.
    assert!(
        committed.elapsed() < Duration::from_millis(500),
        "published {:?} after the commit",
        committed.elapsed()
    );
    assert_eq!(
        message.properties.message_id().as_ref().map(|v| v.as_str()),
        Some(id.to_string().as_str())
    );
    relay.stop().await;
}

#[tokio::test]
async fn an_event_committed_long_after_its_enqueue_is_published_soon_after_the_commit() {
    let (pool, observer, relay) = idle_relay().await;

    let mut tx = pool.begin().await.unwrap();
    outbox::enqueue(&mut tx, &account_created("slow"))
        .await
        .unwrap();
    // The relay, woken, finds nothing yet; it looks again at growing intervals.
    tokio::time::sleep(Duration::from_millis(300)).await;
    tx.commit().await.unwrap();
    let committed = Instant::now();
    observer.next().await;
    assert!(
        committed.elapsed() < Duration::from_millis(700),
        "published {:?} after the commit",
        committed.elapsed()
    );
    relay.stop().await;
}
