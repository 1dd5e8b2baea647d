//! Configuration from the environment with the local stack's defaults, validated at start-up.

use std::{fmt, net::SocketAddr, str::FromStr};

pub use secrecy::{ExposeSecret, SecretString};

/// A bad configuration value: names the variable so the operator knows what to fix.
#[derive(Debug, thiserror::Error)]
#[error("configuration variable {name} is invalid ({value:?}): {reason}")]
pub struct ConfigError {
    pub name: String,
    pub value: String,
    pub reason: String,
}

/// Where Redis is when `REDIS_URL` is unset: the local stack's.
pub const DEFAULT_REDIS_URL: &str = "redis://127.0.0.1:6379";

/// Reads `name` from the environment, or `default` when it is unset, and parses it.
pub fn env_or<T>(name: &str, default: &str) -> Result<T, ConfigError>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let value = std::env::var(name).unwrap_or_else(|_| default.to_owned());
    value.parse().map_err(|err: T::Err| ConfigError {
        name: name.to_owned(),
        value: value.clone(),
        reason: err.to_string(),
    })
}

/// Reads a secret; it never prints (`SecretString` redacts its Debug output).
pub fn secret_or(name: &str, default: &str) -> Result<SecretString, ConfigError> {
    let value = std::env::var(name).unwrap_or_else(|_| default.to_owned());
    if value.is_empty() {
        return Err(ConfigError {
            name: name.to_owned(),
            value: String::new(),
            reason: "must not be empty".to_owned(),
        });
    }
    Ok(SecretString::from(value))
}

/// Set (to `1`) by the local stack (`./dev`, and cargo's own runs through `.cargo/config.toml`):
/// only there may a signing secret fall back to the development value committed in the source.
pub const LOCAL_STACK: &str = "EVIDENTIA_LOCAL_STACK";

/// True on the local stack (see [`LOCAL_STACK`]).
pub fn is_local_stack() -> bool {
    std::env::var(LOCAL_STACK).is_ok_and(|v| v == "1")
}

/// Reads a signing secret (token keys, webhook secrets). Anyone can read a default committed in
/// the source, so outside the local stack a missing or short secret stops the service at start;
/// on the local stack `local_default` keeps `./dev up` free of configuration.
pub fn signing_secret(name: &str, local_default: &str) -> Result<SecretString, ConfigError> {
    signing_secret_from(
        name,
        std::env::var(name).ok(),
        is_local_stack(),
        local_default,
    )
}

/// [`signing_secret`] over explicit inputs, so the rule is testable without the environment.
pub fn signing_secret_from(
    name: &str,
    value: Option<String>,
    local: bool,
    local_default: &str,
) -> Result<SecretString, ConfigError> {
    const MIN_LEN: usize = 32;
    let error = |reason: String| ConfigError {
        name: name.to_owned(),
        value: String::new(),
        reason,
    };
    match value {
        Some(value) if value.len() >= MIN_LEN => Ok(SecretString::from(value)),
        Some(_) => Err(error(format!("must be at least {MIN_LEN} bytes"))),
        None if local => Ok(SecretString::from(local_default.to_owned())),
        None => Err(error(format!(
            "is required outside the local stack ({LOCAL_STACK}=1 only for development)"
        ))),
    }
}

/// The part of the configuration every domain service has.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// `accounts`, `payments`, ...: names the database, queues and telemetry.
    pub service_name: &'static str,
    pub database_url: SecretString,
    /// Connections of this replica's pool (`DATABASE_MAX_CONNECTIONS`, default 10): every
    /// replica's pool counts against PostgreSQL's `max_connections` (docs/capacity.md).
    pub database_max_connections: u32,
    pub grpc_listen_addr: SocketAddr,
    pub amqp: AmqpConfig,
    pub redis_url: String,
}

/// Where events go and how the queues of this service are named.
#[derive(Debug, Clone)]
pub struct AmqpConfig {
    pub url: SecretString,
    /// The topic exchange every service publishes to; tests use one of their own.
    pub exchange: String,
    /// Delete a queue after it has been unused this long (tests set it so their queues vanish).
    pub queue_expires_ms: Option<u32>,
    /// Delay before a failed event is retried.
    pub retry_delay_ms: u32,
    /// Attempts before an event goes to the dead-letter queue.
    pub max_attempts: u32,
    /// Declare the exchange auto-delete (tests: it goes once its queues have expired).
    pub transient: bool,
    /// The kind of queue each consumer declares (`AMQP_QUEUE_TYPE`): `classic` (the default, what
    /// an existing local broker holds) or `quorum` (replicated over the broker's nodes: what the
    /// chart sets, docs/capacity.md). A queue keeps its kind: changing it means a new queue.
    pub quorum_queues: bool,
}

/// A domain service's whole configuration: read from the environment at start-up, holding the
/// settings every service has.
pub trait Configuration: Sized + Send + 'static {
    /// Reads the configuration; a bad value names its variable.
    fn from_env() -> Result<Self, ConfigError>;
    /// The settings every service has.
    fn service(&self) -> &ServiceConfig;
}

impl ServiceConfig {
    pub fn from_env(
        service_name: &'static str,
        default_grpc_port: u16,
    ) -> Result<Self, ConfigError> {
        Ok(Self {
            service_name,
            database_url: secret_or(
                "DATABASE_URL",
                &format!("postgres://postgres@127.0.0.1:5432/evidentia_{service_name}"),
            )?,
            database_max_connections: env_or(
                "DATABASE_MAX_CONNECTIONS",
                &crate::db::DEFAULT_POOL_SIZE.to_string(),
            )?,
            grpc_listen_addr: env_or(
                "GRPC_LISTEN_ADDR",
                &format!("127.0.0.1:{default_grpc_port}"),
            )?,
            amqp: AmqpConfig::from_env()?,
            redis_url: env_or("REDIS_URL", DEFAULT_REDIS_URL)?,
        })
    }
}

impl AmqpConfig {
    pub fn from_env() -> Result<Self, ConfigError> {
        let expires: String = env_or("AMQP_QUEUE_EXPIRES_MS", "")?;
        Ok(Self {
            url: secret_or("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f")?,
            exchange: env_or("AMQP_EXCHANGE", "evidentia.events")?,
            queue_expires_ms: if expires.is_empty() {
                None
            } else {
                Some(env_or("AMQP_QUEUE_EXPIRES_MS", "")?)
            },
            retry_delay_ms: env_or("AMQP_RETRY_DELAY_MS", "2000")?,
            max_attempts: env_or("AMQP_MAX_ATTEMPTS", "5")?,
            quorum_queues: match env_or::<String>("AMQP_QUEUE_TYPE", "classic")?.as_str() {
                "classic" => false,
                "quorum" => true,
                other => {
                    return Err(ConfigError {
                        name: "AMQP_QUEUE_TYPE".to_owned(),
                        value: other.to_owned(),
                        reason: "must be classic or quorum".to_owned(),
                    });
                }
            },
            transient: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signing_secret_is_required_outside_the_local_stack() {
        let missing = signing_secret_from(
            "JWT_SECRET",
            None,
            false,
            "dev-default-dev-default-dev-default",
        )
        .expect_err("a missing secret stops the service");
        assert_eq!(missing.name, "JWT_SECRET");
        assert!(missing.reason.contains("required"), "{missing}");
        let short = signing_secret_from("JWT_SECRET", Some("short".into()), true, "x")
            .expect_err("a short secret stops the service even locally");
        assert!(short.reason.contains("at least 32"), "{short}");
        let local = signing_secret_from("JWT_SECRET", None, true, "the-local-default")
            .expect("the local stack falls back");
        assert_eq!(local.expose_secret(), "the-local-default");
        let given = "s".repeat(40);
        let set = signing_secret_from("JWT_SECRET", Some(given.clone()), false, "x").expect("set");
        assert_eq!(set.expose_secret(), given);
    }
}
