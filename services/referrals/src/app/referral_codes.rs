//! Each user's own referral code, made when the account is created.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{ReferralCode, generate_referral_code},
    error::ReferralsError,
    store::{promo_codes, referral_codes},
};

/// Gives `user_id` a referral code unless it has one; retries on the rare code collision.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn ensure(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<ReferralCode, ReferralsError> {
    for _ in 0..5 {
        let inserted = referral_codes::insert(conn, user_id, &generate_referral_code()).await?;
        if let Some(code) = referral_codes::find(conn, user_id).await? {
            if inserted {
                tracing::info!("referral code created");
            }
            return Ok(code);
        }
    }
    Err(anyhow::anyhow!("could not find a free referral code").into())
}

/// A purged account's referral code and promo redemptions go.
pub async fn purge(conn: &mut PgConnection, user_id: Uuid) -> Result<(), ReferralsError> {
    promo_codes::delete_redemptions_of(conn, user_id).await?;
    referral_codes::delete(conn, user_id).await?;
    Ok(())
}
