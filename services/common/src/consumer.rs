//! Idempotent event consumers: each handler has its own durable queue bound to the topic
//! exchange, processes an event at most once (a `processed_events` row written in the handler's
//! transaction), retries failures after a delay, and moves an event that keeps failing to a
//! dead-letter queue.

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use evidentia_proto::Event;
use futures::StreamExt;
use lapin::{
    Channel,
    message::Delivery,
    options::{
        BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, BasicQosOptions,
        BasicRejectOptions, QueueBindOptions, QueueDeclareOptions,
    },
    types::{AMQPValue, FieldTable},
};
use sqlx::{PgConnection, PgPool};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use uuid::Uuid;

use crate::{amqp, config::AmqpConfig, telemetry};

/// What a handler knows about the event besides its payload.
#[derive(Debug, Clone)]
pub struct EventMeta {
    pub id: Uuid,
    pub routing_key: String,
    /// Earlier attempts at this event (0 on the first delivery).
    pub attempt: i64,
}

/// Handles one kind of event inside the transaction that records it as processed.
#[async_trait]
pub trait Handler<E: Event>: Send + Sync + 'static {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: E,
        meta: &EventMeta,
    ) -> anyhow::Result<()>;
}

#[doc(hidden)]
pub use async_trait::async_trait as __async_trait;

/// Implements [`Handler`] for a handler type from the body alone: the trait's signature is the
/// same for every handler, so it is written here once. The closure's parameters name the
/// connection and the event, and, when three are given, the handler itself (`self`); the body is
/// the handler's, returning `anyhow::Result<()>`.
///
/// ```ignore
/// pub struct OpenOnSignUp;
///
/// handler!(OpenOnSignUp, AccountCreated, |conn, event| {
///     usage::open(conn, Uuid::parse_str(&event.user_id)?).await?;
///     Ok(())
/// });
/// ```
#[macro_export]
macro_rules! handler {
    ($handler:ident, $event:ident, |$this:ident, $conn:ident, $ev:ident| $body:block) => {
        #[$crate::consumer::__async_trait]
        impl $crate::consumer::Handler<$event> for $handler {
            async fn handle(
                &self,
                $conn: &mut ::sqlx::PgConnection,
                $ev: $event,
                _meta: &$crate::consumer::EventMeta,
            ) -> ::anyhow::Result<()> {
                let $this = self;
                $body
            }
        }
    };
    ($handler:ident, $event:ident, |$conn:ident, $ev:ident| $body:block) => {
        $crate::handler!($handler, $event, |_handler, $conn, $ev| $body);
    };
}

#[async_trait]
trait Dispatch: Send + Sync {
    async fn dispatch(
        &self,
        conn: &mut PgConnection,
        payload: &[u8],
        meta: &EventMeta,
    ) -> Result<(), Failure>;
}

enum Failure {
    /// The payload cannot be decoded: retrying cannot help.
    Poison(anyhow::Error),
    Retryable(anyhow::Error),
}

struct Typed<E, H> {
    handler: H,
    _event: std::marker::PhantomData<fn() -> E>,
}

#[async_trait]
impl<E: Event, H: Handler<E>> Dispatch for Typed<E, H> {
    async fn dispatch(
        &self,
        conn: &mut PgConnection,
        payload: &[u8],
        meta: &EventMeta,
    ) -> Result<(), Failure> {
        let event = E::decode(payload).map_err(|e| Failure::Poison(e.into()))?;
        self.handler
            .handle(conn, event, meta)
            .await
            .map_err(Failure::Retryable)
    }
}

struct Binding {
    name: &'static str,
    routing_key: &'static str,
    dispatch: Arc<dyn Dispatch>,
}

/// The consumers of one service.
pub struct Consumers {
    service: &'static str,
    pool: PgPool,
    config: AmqpConfig,
    bindings: Vec<Binding>,
}

impl Consumers {
    pub fn new(service: &'static str, pool: PgPool, config: AmqpConfig) -> Self {
        Self {
            service,
            pool,
            config,
            bindings: Vec::new(),
        }
    }

    /// Registers `handler` for events of type `E` under a name unique within the service; the
    /// name names the queue (`<exchange>.<service>.<name>`).
    #[must_use]
    pub fn on<E: Event, H: Handler<E>>(mut self, name: &'static str, handler: H) -> Self {
        self.bindings.push(Binding {
            name,
            routing_key: E::ROUTING_KEY,
            dispatch: Arc::new(Typed::<E, H> {
                handler,
                _event: std::marker::PhantomData,
            }),
        });
        self
    }

    /// Consumes until `shutdown`, reconnecting after broker failures.
    pub async fn run(self, shutdown: CancellationToken) {
        let mut tasks = JoinSet::new();
        for binding in self.bindings {
            let queue = Queue {
                consumer: format!("{}.{}", self.service, binding.name),
                name: format!("{}.{}.{}", self.config.exchange, self.service, binding.name),
                routing_key: binding.routing_key,
                dispatch: binding.dispatch,
                pool: self.pool.clone(),
                config: self.config.clone(),
            };
            let shutdown = shutdown.clone();
            tasks.spawn(async move { queue.run(shutdown).await });
        }
        while tasks.join_next().await.is_some() {}
    }
}

struct Queue {
    consumer: String,
    name: String,
    routing_key: &'static str,
    dispatch: Arc<dyn Dispatch>,
    pool: PgPool,
    config: AmqpConfig,
}

impl Queue {
    async fn run(&self, shutdown: CancellationToken) {
        let mut backoff = Duration::from_millis(500);
        while !shutdown.is_cancelled() {
            match self.session(&shutdown).await {
                Ok(()) => return,
                Err(err) => {
                    tracing::warn!(queue = %self.name, error = ?err, "consumer interrupted; retrying");
                    tokio::select! {
                        () = shutdown.cancelled() => return,
                        () = tokio::time::sleep(backoff) => {},
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(10));
                }
            }
        }
    }

    fn args(&self, extra: &[(&str, AMQPValue)]) -> FieldTable {
        let mut args = FieldTable::default();
        if let Some(ms) = self.config.queue_expires_ms {
            args.insert("x-expires".into(), AMQPValue::LongLongInt(i64::from(ms)));
        }
        if self.config.quorum_queues {
            args.insert(
                "x-queue-type".into(),
                AMQPValue::LongString("quorum".to_owned().into()),
            );
        }
        for (key, value) in extra {
            args.insert((*key).into(), value.clone());
        }
        args
    }

    async fn declare(&self, channel: &Channel) -> lapin::Result<()> {
        let durable = QueueDeclareOptions {
            durable: true,
            ..QueueDeclareOptions::default()
        };
        let text = |s: &str| AMQPValue::LongString(s.to_owned().into());
        channel
            .queue_declare(
                self.name.as_str().into(),
                durable,
                self.args(&[
                    ("x-dead-letter-exchange", text("")),
                    ("x-dead-letter-routing-key", text(&self.dlq())),
                ]),
            )
            .await?;
        channel
            .queue_declare(
                self.retry().as_str().into(),
                durable,
                self.args(&[
                    (
                        "x-message-ttl",
                        AMQPValue::LongLongInt(i64::from(self.config.retry_delay_ms)),
                    ),
                    ("x-dead-letter-exchange", text("")),
                    ("x-dead-letter-routing-key", text(&self.name)),
                ]),
            )
            .await?;
        channel
            .queue_declare(self.dlq().as_str().into(), durable, self.args(&[]))
            .await?;
        channel
            .queue_bind(
                self.name.as_str().into(),
                self.config.exchange.as_str().into(),
                self.routing_key.into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await
    }

    fn retry(&self) -> String {
        format!("{}.retry", self.name)
    }

    fn dlq(&self) -> String {
        format!("{}.dlq", self.name)
    }

    async fn session(&self, shutdown: &CancellationToken) -> anyhow::Result<()> {
        let (connection, channel) = amqp::open_channel(&self.config, &self.consumer).await?;
        self.declare(&channel).await?;
        channel.basic_qos(16, BasicQosOptions::default()).await?;
        let mut deliveries = channel
            .basic_consume(
                self.name.as_str().into(),
                self.consumer.as_str().into(),
                BasicConsumeOptions::default(),
                FieldTable::default(),
            )
            .await?;
        tracing::info!(queue = %self.name, "consuming");
        loop {
            tokio::select! {
                () = shutdown.cancelled() => {
                    let _ = connection.close(200, "shutdown".into()).await;
                    return Ok(());
                }
                delivery = deliveries.next() => {
                    let Some(delivery) = delivery else {
                        anyhow::bail!("consumer stream ended");
                    };
                    self.process(&channel, delivery?).await?;
                }
            }
        }
    }

    async fn process(&self, channel: &Channel, delivery: Delivery) -> anyhow::Result<()> {
        let properties = &delivery.properties;
        let headers = amqp::string_headers(properties);
        let attempt = amqp::attempt(properties);
        let id = properties
            .message_id()
            .as_ref()
            .and_then(|id| Uuid::parse_str(id.as_str()).ok());
        let span = tracing::info_span!(
            "amqp.consume",
            otel.name = %format!("{} process", self.routing_key),
            otel.kind = "consumer",
            messaging.system = "rabbitmq",
            messaging.destination.name = %self.name,
            messaging.message.id = ?id,
            messaging.consumer.group.name = %self.consumer,
            attempt,
        );
        telemetry::set_parent_from(&span, &telemetry::MapExtractor(&headers));
        let Some(id) = id else {
            tracing::error!(parent: &span, "event without a valid message id; dead-lettered");
            delivery
                .reject(BasicRejectOptions { requeue: false })
                .await?;
            return Ok(());
        };
        let meta = EventMeta {
            id,
            routing_key: delivery.routing_key.as_str().to_owned(),
            attempt,
        };
        let outcome = self
            .handle_once(&delivery.data, &meta)
            .instrument(span.clone())
            .await;
        match outcome {
            Ok(()) => {}
            Err(Failure::Poison(err)) => {
                tracing::error!(parent: &span, error = ?err, "undecodable event; dead-lettered");
                delivery
                    .reject(BasicRejectOptions { requeue: false })
                    .await?;
                return Ok(());
            }
            Err(Failure::Retryable(err)) => {
                let next = attempt + 1;
                let target = if next < i64::from(self.config.max_attempts) {
                    tracing::warn!(parent: &span, error = ?err, attempt = next, "event handler failed; will retry");
                    self.retry()
                } else {
                    tracing::error!(parent: &span, error = ?err, "event handler failed for the last time; dead-lettered");
                    self.dlq()
                };
                let type_name = properties
                    .kind()
                    .as_ref()
                    .map(|t| t.as_str().to_owned())
                    .unwrap_or_default();
                channel
                    .basic_publish(
                        "".into(),
                        target.as_str().into(),
                        BasicPublishOptions::default(),
                        &delivery.data,
                        amqp::properties(&id.to_string(), &type_name, &headers, next),
                    )
                    .await?
                    .await?;
            }
        }
        delivery.ack(BasicAckOptions::default()).await?;
        Ok(())
    }

    /// Runs the handler and records the event in one transaction; a repeat is skipped.
    async fn handle_once(&self, payload: &[u8], meta: &EventMeta) -> Result<(), Failure> {
        let retryable = |e: sqlx::Error| Failure::Retryable(e.into());
        let mut tx = self.pool.begin().await.map_err(retryable)?;
        let fresh = sqlx::query!(
            "INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &self.consumer,
            meta.id
        )
        .execute(&mut *tx)
        .await
        .map_err(retryable)?
        .rows_affected()
            == 1;
        if !fresh {
            tracing::debug!(event.id = %meta.id, "event already processed; skipped");
            return Ok(());
        }
        self.dispatch.dispatch(&mut tx, payload, meta).await?;
        tx.commit().await.map_err(retryable)?;
        Ok(())
    }
}
