//! The gateway: the documented REST surface under `/api/` (spec §7), token verification, the
//! composition of responses from several services, and the web app's files.

pub mod auth;
pub mod clients;
pub mod config;
pub mod error;
pub mod extract;
pub mod forward;
pub mod routes;
pub mod startup;
pub mod web;
