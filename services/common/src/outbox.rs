//! The transactional outbox: events are written in the domain transaction and published by a
//! relay with publisher confirms; a row is deleted only after the broker confirmed it, so no
//! event is lost while the broker is down.
//!
//! The relay is woken by [`enqueue`] in its own process, not by a database notification: a
//! PostgreSQL transaction that notifies takes one lock of the whole cluster at its commit and
//! holds it until the commit record is on disk, so commits that notify are flushed one at a time
//! and never share a flush. Every replica runs a relay, so each one's events are relayed by its
//! own; rows no wake-up announced (a replica that stopped between its commit and its relay's
//! read) are found by the relay's poll.

use std::{
    collections::HashMap,
    sync::{
        Arc, LazyLock,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use evidentia_proto::Event;
use lapin::{Channel, options::BasicPublishOptions};
use sqlx::{PgConnection, PgPool};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use uuid::Uuid;

use crate::{amqp, config::AmqpConfig, telemetry};

const BATCH: i64 = 100;

/// Counts the events this process enqueued; the relays of this process wait on it.
static ENQUEUED: LazyLock<watch::Sender<u64>> = LazyLock::new(|| watch::Sender::new(0));

/// Writes `event` to the outbox inside the caller's transaction, with the current trace context.
#[tracing::instrument(skip_all, fields(event.routing_key = E::ROUTING_KEY))]
pub async fn enqueue<E: Event>(conn: &mut PgConnection, event: &E) -> sqlx::Result<Uuid> {
    let id = Uuid::now_v7();
    let trace = telemetry::current_context_headers();
    sqlx::query!(
        "INSERT INTO outbox (id, routing_key, type_name, payload, trace_context) VALUES ($1, $2, $3, $4, $5)",
        id,
        E::ROUTING_KEY,
        E::TYPE_NAME,
        event.encode_to_vec(),
        sqlx::types::Json(&trace) as _
    )
    .execute(conn)
    .await?;
    // Before the commit, which the relay cannot see: it reads after `GATHER`, then again at
    // growing intervals while it finds nothing, so a transaction that commits later is relayed
    // within about as long again as it took.
    ENQUEUED.send_modify(|count| *count = count.wrapping_add(1));
    Ok(id)
}

#[derive(sqlx::FromRow)]
struct Row {
    id: Uuid,
    routing_key: String,
    type_name: String,
    payload: Vec<u8>,
    trace_context: sqlx::types::Json<HashMap<String, String>>,
}

/// Publishes outbox rows until `shutdown`, reconnecting to the broker and the database as needed.
/// `broker_up` says whether the relay holds a live broker connection (readiness reads it).
pub async fn run_relay(
    pool: PgPool,
    config: AmqpConfig,
    shutdown: CancellationToken,
    broker_up: Arc<AtomicBool>,
) {
    let mut backoff = Duration::from_millis(500);
    while !shutdown.is_cancelled() {
        match relay_session(&pool, &config, &shutdown, &broker_up).await {
            Ok(()) => return,
            Err(err) => {
                broker_up.store(false, Ordering::Relaxed);
                tracing::warn!(error = ?err, "outbox relay interrupted; retrying");
                tokio::select! {
                    () = shutdown.cancelled() => return,
                    () = tokio::time::sleep(backoff) => {},
                }
                backoff = (backoff * 2).min(Duration::from_secs(10));
            }
        }
    }
}

async fn relay_session(
    pool: &PgPool,
    config: &AmqpConfig,
    shutdown: &CancellationToken,
    broker_up: &AtomicBool,
) -> anyhow::Result<()> {
    let (connection, channel) = amqp::open_channel(config, "outbox-relay").await?;
    let mut enqueued = ENQUEUED.subscribe();
    broker_up.store(true, Ordering::Relaxed);
    let mut wait = GATHER;
    loop {
        // An idle relay publishes nothing, so it asks the connection itself whether the broker
        // is still there.
        if !connection.status().connected() {
            anyhow::bail!("the broker connection was lost");
        }
        // Seen before the read: an event enqueued during it wakes the relay again.
        enqueued.borrow_and_update();
        let published = publish_batch(pool, &channel, &config.exchange).await?;
        if published as i64 == BATCH {
            continue;
        }
        if published > 0 {
            wait = GATHER;
        }
        tokio::select! {
            () = shutdown.cancelled() => {
                let _ = connection.close(200, "shutdown".into()).await;
                return Ok(());
            }
            changed = enqueued.changed() => {
                changed?;
                tokio::time::sleep(GATHER).await;
                wait = GATHER;
            }
            () = tokio::time::sleep(wait) => wait = (wait * 2).min(POLL),
        }
    }
}

/// How long the relay, woken by an enqueue, waits before it reads the outbox: the enqueuing
/// transaction commits meanwhile, and under load the events of many transactions then go out in
/// one batch (one read, one delete, one commit) instead of one each.
const GATHER: Duration = Duration::from_millis(20);

/// The longest a relay waits between two reads: after a read that found nothing, the wait
/// doubles from `GATHER` up to this.
const POLL: Duration = Duration::from_secs(2);

/// Publishes up to one batch in id order; returns how many rows were confirmed and deleted.
async fn publish_batch(pool: &PgPool, channel: &Channel, exchange: &str) -> anyhow::Result<usize> {
    let mut tx = pool.begin().await?;
    let rows = sqlx::query_as!(
        Row,
        r#"SELECT id, routing_key, type_name, payload,
                  trace_context AS "trace_context: sqlx::types::Json<HashMap<String, String>>"
           FROM outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED"#,
        BATCH
    )
    .fetch_all(&mut *tx)
    .await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let mut confirms = Vec::with_capacity(rows.len());
    for row in &rows {
        let span = tracing::info_span!(
            "amqp.publish",
            otel.kind = "producer",
            messaging.system = "rabbitmq",
            messaging.destination.name = %exchange,
            messaging.rabbitmq.destination.routing_key = %row.routing_key,
            messaging.message.id = %row.id,
        );
        telemetry::set_parent_from(&span, &telemetry::MapExtractor(&row.trace_context.0));
        let confirm = channel
            .basic_publish(
                exchange.into(),
                row.routing_key.as_str().into(),
                BasicPublishOptions::default(),
                &row.payload,
                amqp::properties(&row.id.to_string(), &row.type_name, &row.trace_context.0, 0),
            )
            .instrument(span)
            .await?;
        confirms.push(confirm);
    }
    let mut confirmed = Vec::with_capacity(rows.len());
    for (row, confirm) in rows.iter().zip(confirms) {
        if confirm.await?.is_ack() {
            confirmed.push(row.id);
        } else {
            tracing::warn!(event.id = %row.id, "broker refused an event; it stays in the outbox");
            break;
        }
    }
    sqlx::query!("DELETE FROM outbox WHERE id = ANY($1)", &confirmed)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(confirmed.len())
}
