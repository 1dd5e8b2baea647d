//! Promo codes: operators create them; a user applies one once, and the wallet is credited by
//! payments from the PromoCodeRedeemed event written in the same transaction as the redemption.

use chrono::{DateTime, Utc};
use evidentia_common::{errors::FieldError, outbox, time};
use evidentia_proto::events::v1::PromoCodeRedeemed;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    domain::{PromoCodeText, rejected},
    error::ReferralsError,
    store::promo_codes::{self, PromoCode},
};

/// Applies `code` for `user_id` and answers the amount credited. Repeating the request with the
/// same idempotency key answers the same amount; applying the code again does not, and the key
/// of one code's redemption sent with another code is refused as reused (like every money-moving
/// call's), not a second credit.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn apply(
    pool: &PgPool,
    user_id: Uuid,
    code: &PromoCodeText,
    idempotency_key: &str,
) -> Result<i64, ReferralsError> {
    let mut tx = pool.begin().await?;
    let Some(promo) = promo_codes::lock(&mut tx, code.as_str()).await? else {
        return Err(rejected("This promo code is not valid."));
    };
    if promo_codes::key_used_for_another(&mut tx, user_id, idempotency_key, code.as_str()).await? {
        return Err(ReferralsError::KeyReused);
    }
    if let Some(earlier) = promo_codes::redemption(&mut tx, code.as_str(), user_id).await? {
        if earlier.idempotency_key == idempotency_key {
            return Ok(earlier.amount_cents);
        }
        return Err(rejected("You have already used this promo code."));
    }
    if promo.expires_at.is_some_and(|at| at <= Utc::now()) {
        return Err(rejected("This promo code has expired."));
    }
    if let Some(max) = promo.max_redemptions
        && promo_codes::redemptions(&mut tx, code.as_str()).await? >= i64::from(max)
    {
        return Err(rejected("This promo code has been used up."));
    }
    let id = Uuid::now_v7();
    let amount = promo.amount_cents;
    promo_codes::redeem(&mut tx, id, code.as_str(), user_id, amount, idempotency_key).await?;
    outbox::enqueue(
        &mut tx,
        &PromoCodeRedeemed {
            redemption_id: id.to_string(),
            user_id: user_id.to_string(),
            code: code.as_str().to_owned(),
            amount,
            occurred_at: Some(time::timestamp(Utc::now())),
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(promo.code = %code.as_str(), amount, "promo code applied");
    Ok(amount)
}

/// The operators' way to make a code (`referrals promo-code create`).
pub async fn create(
    pool: &PgPool,
    code: &str,
    amount_cents: i64,
    max_redemptions: Option<i32>,
    expires_at: Option<DateTime<Utc>>,
) -> Result<String, ReferralsError> {
    let code = PromoCodeText::parse(code)?;
    if amount_cents <= 0 {
        return Err(ReferralsError::Invalid(vec![FieldError::new(
            "amount_cents",
            "The amount must be positive.",
        )]));
    }
    let promo = PromoCode {
        amount_cents,
        max_redemptions,
        expires_at,
    };
    if !promo_codes::insert(&mut *pool.acquire().await?, code.as_str(), &promo).await? {
        return Err(rejected("A promo code with this text exists."));
    }
    Ok(code.as_str().to_owned())
}
