//! The accounts service: identity, confirmation codes, sessions and profiles.

pub mod codes;
pub mod config;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod mailer;
pub mod startup;
pub mod support;
pub mod tokens;
pub mod users;

pub use startup::AccountsService;
