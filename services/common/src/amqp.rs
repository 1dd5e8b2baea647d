//! RabbitMQ connections and the message format shared by the outbox relay and the consumers.

use std::collections::HashMap;

use lapin::{
    BasicProperties, Channel, Connection, ConnectionProperties, ExchangeKind,
    options::{ConfirmSelectOptions, ExchangeDeclareOptions},
    types::{AMQPValue, FieldTable, ShortString},
};
use secrecy::ExposeSecret;

use crate::config::AmqpConfig;

/// Header holding how many times a consumer already tried this message.
pub const ATTEMPT_HEADER: &str = "x-attempt";

/// Opens a connection and a channel in publisher-confirm mode, with the topic exchange declared.
pub async fn open_channel(config: &AmqpConfig, name: &str) -> lapin::Result<(Connection, Channel)> {
    let properties = ConnectionProperties::default().with_connection_name(name.to_owned().into());
    let connection = Connection::connect(config.url.expose_secret(), properties).await?;
    let channel = connection.create_channel().await?;
    channel
        .confirm_select(ConfirmSelectOptions::default())
        .await?;
    channel
        .exchange_declare(
            config.exchange.as_str().into(),
            ExchangeKind::Topic,
            ExchangeDeclareOptions {
                durable: !config.transient,
                auto_delete: config.transient,
                ..ExchangeDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await?;
    Ok((connection, channel))
}

/// Persistent protobuf message properties: id, type, trace context and attempt count.
pub fn properties(
    event_id: &str,
    type_name: &str,
    trace: &HashMap<String, String>,
    attempt: i64,
) -> BasicProperties {
    let mut headers = FieldTable::default();
    for (key, value) in trace {
        headers.insert(
            key.as_str().into(),
            AMQPValue::LongString(value.clone().into()),
        );
    }
    headers.insert(ATTEMPT_HEADER.into(), AMQPValue::LongLongInt(attempt));
    BasicProperties::default()
        .with_message_id(event_id.into())
        .with_type(type_name.into())
        .with_content_type("application/x-protobuf".into())
        .with_delivery_mode(2)
        .with_headers(headers)
}

/// The string headers of a message (the trace context among them).
pub fn string_headers(properties: &BasicProperties) -> HashMap<String, String> {
    let mut map = HashMap::new();
    if let Some(headers) = properties.headers() {
        for (key, value) in headers.inner() {
            let text = match value {
                AMQPValue::LongString(s) => String::from_utf8_lossy(s.as_bytes()).into_owned(),
                AMQPValue::ShortString(s) => s.as_str().to_owned(),
                _ => continue,
            };
            map.insert(key.as_str().to_owned(), text);
        }
    }
    map
}

/// How many attempts were already made on a message.
pub fn attempt(properties: &BasicProperties) -> i64 {
    properties
        .headers()
        .as_ref()
        .and_then(|h| h.inner().get(&ShortString::from(ATTEMPT_HEADER)).cloned())
        .and_then(|v| match v {
            AMQPValue::LongLongInt(n) => Some(n),
            AMQPValue::LongInt(n) => Some(i64::from(n)),
            _ => None,
        })
        .unwrap_or(0)
}
