//! The shared mechanisms against the real PostgreSQL and RabbitMQ. One test binary: each module
//! is an area, `support` what they share.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

mod consumer;
mod outbox;
mod profile_cache;
mod support;
