//! The payments service: Stripe customers, cards, the CreditCard Wallet ledger and prices.

pub mod config;
pub mod customers;
pub mod error;
pub mod events;
pub mod grpc;
pub mod startup;
pub mod stripe;

pub use startup::PaymentsService;
