//! Promo codes: operators create them; a user applies one once, and the wallet is credited by
//! payments from the PromoCodeRedeemed event written in the same transaction as the redemption.

use chrono::{DateTime, Utc};
use evidentia_common::{errors::FieldError, outbox, time};
use evidentia_proto::events::v1::PromoCodeRedeemed;
use sqlx::PgPool;
use uuid::Uuid;

use crate::error::ReferralsError;

/// Spec §3/§9: the code is 7 characters as typed, 'AAA AAA' (three, a space, three); the
/// space is the mask's, so the stored code is the six letters or digits.
pub const LENGTH: usize = 6;

fn rejected(message: &str) -> ReferralsError {
    ReferralsError::invalid("code", message)
}

/// The code as stored: upper case, the mask's space removed (spec §5 "Promo code").
pub fn normalise(code: &str) -> Result<String, ReferralsError> {
    let code: String = code
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    if code.chars().count() != LENGTH || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(rejected(
            "The promo code must be 7 characters: three, a space, three.",
        ));
    }
    Ok(code)
}

/// Applies `code` for `user_id` and answers the amount credited. Repeating the request with the
/// same idempotency key answers the same amount; applying the code again does not.
#[tracing::instrument(skip_all, fields(user.id = %user_id))]
pub async fn apply(
    pool: &PgPool,
    user_id: Uuid,
    code: &str,
    idempotency_key: &str,
) -> Result<i64, ReferralsError> {
    let code = normalise(code)?;
    let mut tx = pool.begin().await?;
    let promo: Option<(i64, Option<i32>, Option<DateTime<Utc>>)> = sqlx::query_as(
        "SELECT amount_cents, max_redemptions, expires_at FROM promo_codes WHERE code = $1 FOR UPDATE",
    )
    .bind(&code)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((amount, max, expires_at)) = promo else {
        return Err(rejected("This promo code is not valid."));
    };
    let earlier: Option<(i64, String)> = sqlx::query_as(
        "SELECT amount_cents, idempotency_key FROM promo_redemptions WHERE code = $1 AND user_id = $2",
    )
    .bind(&code)
    .bind(user_id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((amount, key)) = earlier {
        if key == idempotency_key {
            return Ok(amount);
        }
        return Err(rejected("You have already used this promo code."));
    }
    if expires_at.is_some_and(|at| at <= Utc::now()) {
        return Err(rejected("This promo code has expired."));
    }
    if let Some(max) = max {
        let used: i64 =
            sqlx::query_scalar("SELECT count(*) FROM promo_redemptions WHERE code = $1")
                .bind(&code)
                .fetch_one(&mut *tx)
                .await?;
        if used >= i64::from(max) {
            return Err(rejected("This promo code has been used up."));
        }
    }
    let id = Uuid::now_v7();
    sqlx::query(
        "INSERT INTO promo_redemptions (id, code, user_id, amount_cents, idempotency_key) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(&code)
    .bind(user_id)
    .bind(amount)
    .bind(idempotency_key)
    .execute(&mut *tx)
    .await?;
    outbox::enqueue(
        &mut tx,
        &PromoCodeRedeemed {
            redemption_id: id.to_string(),
            user_id: user_id.to_string(),
            code: code.clone(),
            amount,
            occurred_at: Some(time::timestamp(Utc::now())),
        },
    )
    .await?;
    tx.commit().await?;
    tracing::info!(promo.code = %code, amount, "promo code applied");
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
    let code = normalise(code)?;
    if amount_cents <= 0 {
        return Err(ReferralsError::Invalid(vec![FieldError::new(
            "amount_cents",
            "The amount must be positive.",
        )]));
    }
    let inserted = sqlx::query(
        "INSERT INTO promo_codes (code, amount_cents, max_redemptions, expires_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (code) DO NOTHING",
    )
    .bind(&code)
    .bind(amount_cents)
    .bind(max_redemptions)
    .bind(expires_at)
    .execute(pool)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(rejected("A promo code with this text exists."));
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_space_and_case_do_not_matter() {
        assert_eq!(normalise("abc 123").unwrap(), "ABC123");
        assert_eq!(normalise("ABC123").unwrap(), "ABC123");
    }

    #[test]
    fn a_code_of_another_length_or_with_symbols_is_refused() {
        for bad in ["AB 123", "ABCD 1234", "AB$ 123", ""] {
            assert!(normalise(bad).is_err(), "{bad}");
        }
    }
}
