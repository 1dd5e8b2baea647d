//! Accounts' queries, one module per table, each a small instrumented function over
//! `sqlx::query!`/`query_as!` (checked at compile time against the migrations; the offline cache
//! is committed in `.sqlx/`). They take and give plain values: rules live in `app` and `domain`.

pub mod action_logs;
pub mod confirmation_codes;
pub mod invites;
pub mod organizations;
pub mod refresh_tokens;
pub mod users;
pub mod verifications;
