//! Helpers shared by the outbox and consumer tests: a migrated database of the test's own and raw
//! publishing as another service would (the observing queue is `testing::Observer`).

use std::time::Duration;

use evidentia_common::{amqp, config::AmqpConfig, db, testing};
use evidentia_proto::events::v1::AccountCreated;
use lapin::{BasicProperties, Channel, options::BasicPublishOptions};
use secrecy::SecretString;
use sqlx::{PgPool, migrate::Migrator};
use uuid::Uuid;

/// No migrations of a service: only the shared outbox and processed-event tables.
static NO_SERVICE_MIGRATIONS: Migrator = Migrator::DEFAULT;

pub const WAIT: Duration = Duration::from_secs(15);

/// A fresh database with the shared tables, and a pool on it.
pub async fn database() -> (SecretString, PgPool) {
    let url = testing::database_url("common").await;
    let pool = db::connect_and_migrate(&url, &NO_SERVICE_MIGRATIONS)
        .await
        .expect("migrate the test database");
    (url, pool)
}

pub fn account_created(username: &str) -> AccountCreated {
    AccountCreated {
        user_id: Uuid::now_v7().to_string(),
        username: username.to_owned(),
        email: format!("{username}@example.com"),
        account_type: "individual".to_owned(),
        ..AccountCreated::default()
    }
}

pub async fn outbox_rows(pool: &PgPool) -> i64 {
    sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM outbox"#)
        .fetch_one(pool)
        .await
        .expect("count outbox rows")
}

/// Publishes `payload` to the exchange as the outbox relay would, retrying until a queue is
/// bound to `routing_key` (a consumer declares its queue when it starts).
pub async fn publish_routed(
    channel: &Channel,
    config: &AmqpConfig,
    routing_key: &str,
    id: Uuid,
    payload: &[u8],
) {
    let properties = || {
        amqp::properties(
            &id.to_string(),
            "evidentia.events.v1.AccountCreated",
            &Default::default(),
            0,
        )
    };
    publish_until_routed(channel, &config.exchange, routing_key, payload, properties).await;
}

/// Publishes with `mandatory` until the broker routes the message to a queue.
pub async fn publish_until_routed(
    channel: &Channel,
    exchange: &str,
    routing_key: &str,
    payload: &[u8],
    properties: impl Fn() -> BasicProperties,
) {
    testing::eventually(&format!("a queue bound to {routing_key}"), WAIT, || async {
        let confirmation = channel
            .basic_publish(
                exchange.into(),
                routing_key.into(),
                BasicPublishOptions {
                    mandatory: true,
                    ..BasicPublishOptions::default()
                },
                payload,
                properties(),
            )
            .await
            .expect("publish")
            .await
            .expect("publisher confirm");
        assert!(confirmation.is_ack(), "the broker refused the message");
        confirmation.take_message().is_none().then_some(())
    })
    .await;
}
