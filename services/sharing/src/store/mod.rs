//! Sharing's queries, one module per table, each a small instrumented function over
//! `sqlx::query!`/`query_as!` (checked at compile time against the migrations; the offline cache
//! is committed in `.sqlx/`).

pub mod access;
pub mod chat;
pub mod contributions;
pub mod copies;
pub mod custody;
pub mod deliveries;
pub mod futuregrams;
pub mod packets;
pub mod shares;
