//! The use-cases of referrals: a connection or pool in, domain types in and out.

pub mod invitations;
pub mod promo;
pub mod referral_codes;
