//! Evidence's queries, one module per table, each a small instrumented function over
//! `sqlx::query!`/`query_as!` (checked at compile time against the migrations; the offline cache
//! is committed in `.sqlx/`).

pub mod folder_steps;
pub mod folders;
pub mod holds;
pub mod items;
pub mod rentals;
pub mod templates;
pub mod usage;
