//! Evidence's behaviour through its typed gRPC client, against the real PostgreSQL, RabbitMQ and
//! SeaweedFS. One test binary: each module is an area.

#![allow(
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test code: a failure should stop the test"
)]

mod storage_dates;
