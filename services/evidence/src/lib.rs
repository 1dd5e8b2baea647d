//! The evidence service: folders, evidence items, uploads straight to S3 with integrity checks,
//! storage dates and per-user storage usage (every account gets its usage row at sign-up),
//! organization capture (templates, organization folders, contributions).

pub mod app;
pub mod config;
pub mod domain;
pub mod error;
pub mod geocode;
pub mod grpc;
pub mod memberships;
pub mod receipts;
pub mod sniff;
pub mod startup;
pub mod state;
pub mod storage;
pub mod store;
pub mod thumbnails;
pub mod timestamps;

pub use config::Config;
pub use startup::EvidenceService;
