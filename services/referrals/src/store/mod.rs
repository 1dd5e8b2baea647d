//! The referrals database, one module per table, over `sqlx::query!`.

pub mod promo_codes;
pub mod referral_codes;
