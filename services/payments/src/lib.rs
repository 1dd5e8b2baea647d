//! The payments service: Stripe customers, cards, the CreditCard Wallet ledger and prices.

pub mod cards;
pub mod config;
pub mod customers;
pub mod domain;
pub mod error;
pub mod events;
pub mod grpc;
pub mod idempotency;
pub mod movements;
pub mod pricing;
pub mod purchases;
pub mod startup;
pub mod stripe;
pub mod wallet;
pub mod webhook;

pub use startup::PaymentsService;
