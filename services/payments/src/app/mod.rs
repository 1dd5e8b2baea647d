//! The use-cases of payments: each takes a connection, a transaction or the pool plus only what it
//! uses (`&dyn Stripe`, `&Pricing`), and speaks domain types, never protobuf. While Stripe answers,
//! no row another request needs is locked: only the request's own idempotency key (its retries
//! wait for it) and, while a Stripe customer is made, that user's customer row. The wallet row is
//! locked only by the ledger write after Stripe answered (a purchase's debit, from its statement
//! to the commit), and the auto top-up is claimed, not locked.

pub mod cards;
pub mod charges;
pub mod customers;
pub mod ledger;
pub mod pay;
pub mod prices;
pub mod rewards;
pub mod transactions;
pub mod wallet;
pub mod webhook;
