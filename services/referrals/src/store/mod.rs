//! The referrals database, one module per table, over `sqlx::query!`.

pub mod directory;
pub mod invitations;
pub mod promo_codes;
pub mod referral_codes;
pub mod referrals;
