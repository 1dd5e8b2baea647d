//! Infrastructure shared by every Evidentia service: configuration, telemetry, database, gRPC
//! server and client plumbing, the transactional outbox and idempotent event consumers, Redis
//! helpers, error conversion and shutdown. No domain logic lives here.

pub mod amqp;
pub mod auth;
pub mod config;
pub mod consumer;
pub mod contact;
pub mod db;
pub mod errors;
pub mod grpc;
pub mod idempotency;
pub mod mailer;
pub mod outbox;
pub mod profile_cache;
pub mod ratelimit;
pub mod role;
pub mod s3;
pub mod service;
pub mod shutdown;
#[cfg(feature = "signing")]
pub mod signing;
pub mod sms;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod time;
pub mod tls;

pub use evidentia_proto as proto;
