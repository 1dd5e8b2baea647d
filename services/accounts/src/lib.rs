//! The accounts service: identity, confirmation codes, sessions, profiles and their history,
//! recovery, deletion, and organizations with their participants.
//!
//! A call goes `grpc` (the edge) -> `app` (one module per use-case) -> `store` (the queries) and
//! `domain` (validated values); `startup` builds the `state` and the server.

pub mod app;
pub mod config;
pub mod domain;
pub mod error;
pub mod grpc;
pub use evidentia_common::mailer;
pub mod outbound;
pub use evidentia_common::sms;
pub mod startup;
pub mod state;
pub mod store;

pub use startup::AccountsService;
