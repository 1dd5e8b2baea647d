//! The evidence service: folders, evidence items, uploads straight to S3 with integrity checks,
//! storage dates and per-user storage usage (every account gets its usage row at sign-up).

pub mod config;
pub mod contributions;
pub mod domain;
pub mod error;
pub mod folders;
pub mod geocode;
pub mod grpc;
pub mod holds;
pub mod items;
pub mod memberships;
pub mod org_folders;
pub mod organizations;
pub mod sniff;
pub mod startup;
pub mod state;
pub mod storage;
pub mod store;
pub mod sweeper;
pub mod templates;
pub mod thumbnails;
pub mod usage;
pub mod verify;

pub use config::Config;
pub use startup::EvidenceService;
