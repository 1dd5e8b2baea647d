//! Evidence's behaviour through its typed gRPC client, against the real PostgreSQL, RabbitMQ and
//! SeaweedFS. One test binary: each module is an area, `helpers` the service they spawn.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test code: a failure should stop the test"
)]

mod files;
mod folders;
mod helpers;
mod organizations;
mod receipts;
mod storage_dates;
mod uploads;
