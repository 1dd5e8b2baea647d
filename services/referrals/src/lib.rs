//! The referrals service: each user's own referral code, shareable codes and promo codes.
//!
//! `grpc` is the edge, `app` the use-cases, `store` the queries, `domain` the values.

pub mod app;
pub mod cli;
pub mod config;
pub mod domain;
pub mod error;
pub mod events;
pub mod grpc;
pub mod startup;
pub mod state;
pub mod store;

pub use startup::ReferralsService;
