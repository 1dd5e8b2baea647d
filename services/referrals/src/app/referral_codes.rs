//! Each user's own referral code, made when the account is created; what it has brought them;
//! who owns a code; and a sign-up with a friend's code recorded as their referral.

use chrono::Utc;
use evidentia_common::{
    outbox,
    ratelimit::{self, Verdict},
    time,
};
use evidentia_proto::events::v1::{AccountCreated, ReferralRecorded, ReferralRewardSettled};
use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    domain::{ReferralCode, generate_referral_code, phone_key, typed_referral_code},
    error::ReferralsError,
    store::{
        directory::{self, Entry},
        invitations, promo_codes, referral_codes,
        referrals::{self, NewReferral, Tally},
    },
};

/// The link a friend signs up with (spec §2: sign-up with `referred=true`).
pub fn link(public_base_url: &str, code: &str) -> String {
    format!(
        "{}/sign-up?referred=true&code={code}",
        public_base_url.trim_end_matches('/')
    )
}

/// The caller's code and what it has brought: invitations sent, friends signed up and rewarded,
/// and the total earned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub code: ReferralCode,
    pub link: String,
    pub invited: i64,
    pub tally: Tally,
}

pub async fn info(
    pool: &PgPool,
    public_base_url: &str,
    user_id: Uuid,
) -> Result<Info, ReferralsError> {
    let mut tx = pool.begin().await?;
    // The code normally exists since AccountCreated; a caller faster than the event gets it now.
    let code = ensure(&mut tx, user_id).await?;
    let invited = invitations::count(&mut tx, user_id).await?;
    let tally = referrals::tally(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(Info {
        link: link(public_base_url, &code.code),
        code,
        invited,
        tally,
    })
}

/// Whose code `typed` is: their first name when it is someone's. Asked before an account
/// exists, so limited per client address (it would otherwise list who uses the service).
pub async fn check(
    pool: &PgPool,
    redis: &ConnectionManager,
    per_hour: u32,
    typed: &str,
    client_ip: &str,
) -> Result<Option<String>, ReferralsError> {
    if !client_ip.is_empty() {
        let key = format!("referrals:code-checks:client:{client_ip}");
        if let Verdict::Refused { retry_after_secs } =
            ratelimit::hit(redis, &key, per_hour, 3600).await?
        {
            return Err(ReferralsError::RateLimited {
                message: "Too many codes were checked. Please try again later.",
                retry_after_secs,
            });
        }
    }
    let code = typed_referral_code(typed);
    if code.is_empty() {
        return Ok(None);
    }
    let mut conn = pool.acquire().await?;
    let Some(owner) = referral_codes::owner(&mut conn, &code).await? else {
        return Ok(None);
    };
    Ok(Some(
        directory::find(&mut conn, owner)
            .await?
            .map(|entry| entry.first_name)
            .unwrap_or_default(),
    ))
}

/// A new account: it gets its own code and a directory entry, and when it signed up with a
/// friend's code it becomes that friend's referral (told to payments, which pays the reward),
/// unless the code is its own kind of self-referral (the friend's e-mail or phone is the new
/// account's).
pub async fn on_sign_up(
    conn: &mut PgConnection,
    event: &AccountCreated,
) -> Result<(), ReferralsError> {
    let user_id = Uuid::parse_str(&event.user_id).map_err(anyhow::Error::from)?;
    let entry = Entry {
        user_id,
        email: event.email.to_lowercase(),
        phone: phone_key(&event.phone_country_code, &event.phone_national_number),
        first_name: event.first_name.clone(),
    };
    directory::insert(conn, &entry).await?;
    ensure(conn, user_id).await?;
    let code = typed_referral_code(&event.referral_code);
    if code.is_empty() {
        return Ok(());
    }
    let Some(referrer_id) = referral_codes::owner(conn, &code).await? else {
        tracing::info!("signed up with an unknown referral code");
        return Ok(());
    };
    let referrer = directory::find(conn, referrer_id).await?;
    let same_person = referrer_id == user_id
        || referrer.is_some_and(|r| {
            r.email == entry.email || (!r.phone.is_empty() && r.phone == entry.phone)
        });
    if same_person {
        tracing::warn!(referrer.id = %referrer_id, "self-referral not recorded");
        return Ok(());
    }
    let recorded = referrals::insert(
        conn,
        &NewReferral {
            referred_id: user_id,
            referrer_id,
            email: &entry.email,
            phone: &entry.phone,
        },
    )
    .await?;
    if recorded {
        // Payments keeps the reward until the friend's first payment.
        outbox::enqueue(
            conn,
            &ReferralRecorded {
                referred_id: user_id.to_string(),
                referrer_id: referrer_id.to_string(),
                occurred_at: Some(time::timestamp(Utc::now())),
            },
        )
        .await?;
        tracing::info!(referrer.id = %referrer_id, "referral recorded");
    }
    Ok(())
}

/// What payments decided on a referral's reward: the referral's state as the screens count it
/// (`paid` is `rewarded`), and what the inviter was credited (only `rewarded` counts as earned).
pub async fn on_reward(
    conn: &mut PgConnection,
    event: &ReferralRewardSettled,
) -> Result<(), ReferralsError> {
    let referred = Uuid::parse_str(&event.referred_id).map_err(anyhow::Error::from)?;
    let state = match event.state.as_str() {
        "paid" => "rewarded",
        state @ ("capped" | "held" | "refused" | "reversed" | "lapsed") => state,
        other => return Err(anyhow::anyhow!("a reward in the state {other:?}").into()),
    };
    referrals::set_reward(conn, referred, state, event.referrer_reward).await?;
    Ok(())
}

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

/// A deleted account's invitations go at once (its messages stop being resendable).
pub async fn on_deletion(conn: &mut PgConnection, user_id: Uuid) -> Result<(), ReferralsError> {
    invitations::delete_all(conn, user_id).await?;
    Ok(())
}

/// A purged account's code, directory entry, invitations and promo redemptions go; as a friend
/// its referral goes, and as an inviter its rewards not yet paid lapse.
pub async fn purge(conn: &mut PgConnection, user_id: Uuid) -> Result<(), ReferralsError> {
    promo_codes::delete_redemptions_of(conn, user_id).await?;
    referral_codes::delete(conn, user_id).await?;
    invitations::delete_all(conn, user_id).await?;
    referrals::purge(conn, user_id).await?;
    directory::delete(conn, user_id).await?;
    Ok(())
}
