//! The gateway through its REST API with every service running in-process on free ports against
//! the real components (each test has its own databases and exchange). One test binary: each
//! module is an area, `support` the stack they share.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers: a failed step should stop the test"
)]

mod accounts;
mod chat;
mod contact;
mod evidence;
mod futuregram;
mod hardening;
mod journeys;
mod org_capture;
mod payments;
mod profile_cache;
mod referrals;
mod sharing;
mod support;
mod trace;
