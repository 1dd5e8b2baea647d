//! The sharing service: shares of folders and evidence as watermarked copies, recipient access
//! by code, public links, public verification by transaction number and the custody log. It
//! keeps its own directory of accounts (from `AccountCreated`) for the watermark, and reads
//! media only through the evidence service's API.

pub mod app;
pub mod config;
pub mod directory;
pub mod domain;
pub mod error;
pub mod grpc;
pub mod outbound;
pub mod packet;
pub mod render;
pub mod startup;
pub mod state;
pub mod store;

pub use startup::SharingService;
