//! The payments database, one module per table: small functions over `sqlx::query!`, checked at
//! compile time against the migrations (the offline cache is `.sqlx/` at the workspace root).

pub mod customers;
pub mod declines;
pub mod idempotency_keys;
pub mod intents;
pub mod movements;
pub mod payment_methods;
pub mod purchases;
pub mod referral_rewards;
pub mod stripe_events;
pub mod wallets;
