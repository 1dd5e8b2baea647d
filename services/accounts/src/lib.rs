//! The accounts service: identity, confirmation codes, sessions, profiles and their history,
//! recovery, deletion, and organizations with their participants.

pub mod codes;
pub mod config;
pub mod deletion;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod history;
pub use evidentia_common::mailer;
pub mod organizations;
pub mod profile;
pub mod recovery;
pub use evidentia_common::sms;
pub mod startup;
pub mod state;
pub mod store;
pub mod support;
pub mod tokens;
pub mod users;

pub use startup::AccountsService;
