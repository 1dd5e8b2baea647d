//! What every call of the referrals service can reach.

use sqlx::PgPool;

#[derive(Clone)]
pub struct ReferralsState {
    pub pool: PgPool,
}
