//! The referrals service: each user's own referral code, shareable codes and promo codes.

pub mod cli;
pub mod codes;
pub mod config;
pub mod error;
pub mod grpc;
pub mod promo;
pub mod startup;

pub use startup::ReferralsService;
