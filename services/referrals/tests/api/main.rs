//! Referrals' behaviour through its typed gRPC client, against the real PostgreSQL, RabbitMQ,
//! Redis, SMTP and SMS sinks. One test binary: each module is an area.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

mod codes;
mod helpers;
mod invitations;
