//! Evidence's use-cases, one module each: domain values in and out, only the dependencies each
//! uses.

pub mod access;
pub mod contributions;
pub mod folders;
pub mod holds;
pub mod items;
pub mod make_thumbnail;
pub mod org_folders;
pub mod purge_account;
pub mod retake;
pub mod storage_dates;
pub mod sweeper;
pub mod templates;
pub mod timestamp_receipts;
pub mod uploads;
pub mod usage;
pub mod verify;
