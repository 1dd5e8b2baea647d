//! Invitations: a user sends their referral link to a friend by e-mail or SMS, sees what became
//! of each (invited, signed up, rewarded), sends one again after a while, or deletes it. Sends
//! are limited per user per day and per invitation, so the programme cannot be used to spam.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use evidentia_common::{mailer::Mailer, sms::SmsSender};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::referral_codes,
    config::Limits,
    domain::{Invitee, Sorting},
    error::ReferralsError,
    store::{
        directory,
        invitations::{self, InvitationRow, NewInvitation},
    },
};

/// The most invitations one list shows (spec §9: the referral code list's page limit).
pub const LIST_LIMIT: i64 = 50;

const TOO_MANY_TODAY: &str =
    "You have sent as many invitations as you can today. Please try again tomorrow.";
const TOO_SOON: &str = "This invitation was just sent. You can send it again a little later.";
const SENT_ENOUGH: &str = "This invitation has been sent as many times as it can be.";

/// An invitation as its sender sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub id: Uuid,
    pub channel: String,
    pub sent_to: String,
    pub name: String,
    pub status: String,
    pub created_at: DateTime<Utc>,
    pub last_sent_at: DateTime<Utc>,
    pub sends: i32,
    /// When it can be sent again; `None` when it can be now.
    pub resend_after: Option<DateTime<Utc>>,
    /// How many more times it can be sent (0: no more).
    pub sends_left: i32,
}

impl Invitation {
    fn new(row: InvitationRow, limits: &Limits, now: DateTime<Utc>) -> Self {
        let next = row.last_sent_at + cooldown(limits);
        Self {
            resend_after: (next > now).then_some(next),
            id: row.id,
            channel: row.channel,
            sent_to: row.address,
            name: row.name,
            status: row.status,
            created_at: row.created_at,
            last_sent_at: row.last_sent_at,
            sends_left: (limits.sends_per_invitation - row.sends).max(0),
            sends: row.sends,
        }
    }
}

fn cooldown(limits: &Limits) -> chrono::Duration {
    chrono::Duration::from_std(limits.resend_after).unwrap_or(chrono::Duration::MAX)
}

/// What sending needs: the store, the two ways out, the limits, and where links point.
pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub mailer: &'a Arc<dyn Mailer>,
    pub sms: &'a Arc<dyn SmsSender>,
    pub limits: &'a Limits,
    pub public_base_url: &'a str,
}

/// A new invitation to `invitee`, sent at once. Refused: inviting one of your own addresses, an
/// address that already has an account, one you already invited, or more than the day allows.
#[tracing::instrument(skip_all, fields(user.id = %referrer_id))]
pub async fn create(
    deps: &Deps<'_>,
    referrer_id: Uuid,
    invitee: &Invitee,
    name: &str,
) -> Result<Invitation, ReferralsError> {
    let address = invitee.address();
    let mut tx = deps.pool.begin().await?;
    let me = directory::find(&mut tx, referrer_id).await?;
    if me
        .as_ref()
        .is_some_and(|me| me.email == address || (!me.phone.is_empty() && me.phone == address))
    {
        return Err(ReferralsError::invalid(
            invitee.field(),
            "You cannot invite yourself.",
        ));
    }
    if directory::has_address(&mut tx, &address).await? {
        return Err(ReferralsError::invalid(
            invitee.field(),
            "This person already has an Evidentia account.",
        ));
    }
    within_daily_limit(&mut tx, deps.limits, referrer_id).await?;
    let id = Uuid::now_v7();
    let new = NewInvitation {
        id,
        referrer_id,
        channel: invitee.channel(),
        address: &address,
        name,
    };
    if !invitations::insert(&mut tx, &new).await? {
        return Err(ReferralsError::invalid(
            invitee.field(),
            "You have already invited this address. You can send the invitation again from your list.",
        ));
    }
    let first_name = me.map(|me| me.first_name).unwrap_or_default();
    // Sent before the commit: an invitation that could not go out is not recorded.
    send(
        deps,
        &mut tx,
        referrer_id,
        invitee.channel(),
        &address,
        &first_name,
    )
    .await?;
    let row = invitations::find_owned(&mut tx, referrer_id, id)
        .await?
        .ok_or(ReferralsError::NotFound)?;
    tx.commit().await?;
    Ok(Invitation::new(row, deps.limits, Utc::now()))
}

/// The user's invitations, at most [`LIST_LIMIT`].
pub async fn list(
    pool: &PgPool,
    limits: &Limits,
    referrer_id: Uuid,
    sorting: Sorting,
) -> Result<Vec<Invitation>, ReferralsError> {
    let mut conn = pool.acquire().await?;
    let rows =
        invitations::list(&mut conn, referrer_id, sorting.as_str(), LIST_LIMIT, None).await?;
    let now = Utc::now();
    Ok(rows
        .into_iter()
        .map(|row| Invitation::new(row, limits, now))
        .collect())
}

/// Sends the invitation again, once its cooldown has passed and while it has sends left.
#[tracing::instrument(skip_all, fields(invitation.id = %id))]
pub async fn resend(
    deps: &Deps<'_>,
    referrer_id: Uuid,
    id: Uuid,
) -> Result<Invitation, ReferralsError> {
    let mut tx = deps.pool.begin().await?;
    let row = invitations::lock_owned(&mut tx, referrer_id, id)
        .await?
        .ok_or(ReferralsError::NotFound)?;
    if row.sends >= deps.limits.sends_per_invitation {
        return Err(ReferralsError::RateLimited {
            message: SENT_ENOUGH,
            retry_after_secs: 86_400,
        });
    }
    let now = Utc::now();
    let next = row.last_sent_at + cooldown(deps.limits);
    if next > now {
        return Err(ReferralsError::RateLimited {
            message: TOO_SOON,
            retry_after_secs: seconds_until(next, now),
        });
    }
    within_daily_limit(&mut tx, deps.limits, referrer_id).await?;
    let first_name = directory::find(&mut tx, referrer_id)
        .await?
        .map(|me| me.first_name)
        .unwrap_or_default();
    invitations::mark_sent(&mut tx, id, now).await?;
    send(
        deps,
        &mut tx,
        referrer_id,
        &row.channel,
        &row.address,
        &first_name,
    )
    .await?;
    let row = invitations::find_owned(&mut tx, referrer_id, id)
        .await?
        .ok_or(ReferralsError::NotFound)?;
    tx.commit().await?;
    Ok(Invitation::new(row, deps.limits, now))
}

/// Deletes one of the user's invitations (a friend who signs up later with the code is still
/// their referral: the code, not the invitation, carries it).
pub async fn delete(pool: &PgPool, referrer_id: Uuid, id: Uuid) -> Result<(), ReferralsError> {
    let mut conn = pool.acquire().await?;
    if invitations::delete_owned(&mut conn, referrer_id, id).await? {
        Ok(())
    } else {
        Err(ReferralsError::NotFound)
    }
}

async fn within_daily_limit(
    conn: &mut PgConnection,
    limits: &Limits,
    referrer_id: Uuid,
) -> Result<(), ReferralsError> {
    let now = Utc::now();
    let day = chrono::Duration::days(1);
    let (sent, oldest) = invitations::sent_since(conn, referrer_id, now - day).await?;
    if sent < limits.invitations_per_day {
        return Ok(());
    }
    Err(ReferralsError::RateLimited {
        message: TOO_MANY_TODAY,
        retry_after_secs: seconds_until(oldest.unwrap_or(now) + day, now),
    })
}

fn seconds_until(at: DateTime<Utc>, now: DateTime<Utc>) -> u64 {
    u64::try_from((at - now).num_seconds()).unwrap_or(0).max(1)
}

/// The invitation message with the referrer's link, by e-mail or SMS.
async fn send(
    deps: &Deps<'_>,
    conn: &mut PgConnection,
    referrer_id: Uuid,
    channel: &str,
    address: &str,
    first_name: &str,
) -> Result<(), ReferralsError> {
    let code = referral_codes::ensure(conn, referrer_id).await?;
    let link = referral_codes::link(deps.public_base_url, &code.code);
    let who = if first_name.trim().is_empty() {
        "A friend"
    } else {
        first_name.trim()
    };
    let text = format!(
        "{who} invited you to Evidentia, to capture photo, video and audio evidence, keep it safe \
         and share it with proof. Sign up with this link: {link}"
    );
    if channel == "sms" {
        deps.sms.send(address, &text).await?;
    } else {
        let subject = format!("{who} invited you to Evidentia");
        deps.mailer.send(address, &subject, &text).await?;
    }
    Ok(())
}
