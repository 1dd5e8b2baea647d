//! Sharing's behaviour through its typed gRPC client, with the services it calls (evidence and
//! payments) spawned beside it against the real PostgreSQL, RabbitMQ, Redis, SeaweedFS,
//! localstripe and mail sink. One test binary: each module is an area, `helpers` the services
//! they spawn.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test code: a failure should stop the test"
)]

mod chats;
mod contributions;
mod futuregrams;
mod helpers;
mod packets;
mod shares;
