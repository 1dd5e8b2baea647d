//! The payments service: Stripe customers, cards, the CreditCard Wallet ledger and prices.
//!
//! `grpc` is the edge (proto in and out, idempotency of money-moving calls), `app` the use-cases,
//! `store` the queries, `domain` and `pricing` the values, `stripe` the one outbound system.

pub mod app;
pub mod cli;
pub mod config;
pub mod domain;
pub mod error;
pub mod events;
pub mod grpc;
pub mod idempotency;
pub mod pricing;
pub mod startup;
pub mod state;
pub mod store;
pub mod stripe;

pub use startup::PaymentsService;
