//! Accounts' use-cases, one module each: a connection, a transaction or the pool plus only the
//! dependencies each uses; domain values in and out, never proto.

pub mod codes;
pub mod contact_change;
pub mod deletion;
pub mod history;
pub mod invites;
pub mod organizations;
pub mod passwords;
pub mod profile;
pub mod recovery;
pub mod sender;
pub mod sessions;
pub mod sign_in;
pub mod sign_up;
pub mod support;
pub mod verifications;
