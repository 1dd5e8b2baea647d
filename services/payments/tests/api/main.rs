//! Payments' behaviour through its typed gRPC client, against the real PostgreSQL, RabbitMQ and
//! the Stripe emulator (localstripe). One test binary: each module is an area.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

mod cards;
mod customers;
mod helpers;
mod prices;
mod purchases;
mod referral_rewards;
mod wallet;
