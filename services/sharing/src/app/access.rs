//! A recipient's way in: the link in their message asks for a code sent to their own address;
//! the code (single use, 10 minutes, 5 tries, stored hashed) gives an access token that opens
//! that one delivery until it expires or the share is revoked. A public link opens its
//! delivery while the owner keeps it on.

use chrono::{DateTime, Utc};
use evidentia_common::ratelimit::{self, Verdict};
use redis::aio::ConnectionManager;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    app::{
        custody::{self, Kind, Whose},
        links::Links,
    },
    domain::{CopyType, Recipient, access_code, hash_secret, secret},
    error::SharingError,
    outbound::Messengers,
    state::Settings,
    store::{
        access,
        deliveries::{self, Opened},
        shares,
    },
};

#[derive(Debug, Clone)]
pub struct CodeSent {
    pub code_id: Uuid,
    pub sent_to_masked: String,
    pub copy_type: CopyType,
    pub expires_in_secs: i32,
}

#[derive(Debug, Clone)]
pub struct Granted {
    pub token: String,
    pub copy_type: CopyType,
    pub expires_at: DateTime<Utc>,
}

pub struct Deps<'a> {
    pub pool: &'a PgPool,
    pub redis: &'a ConnectionManager,
    pub links: &'a Links,
    pub messengers: &'a Messengers,
    pub settings: &'a Settings,
}

pub const TOO_MANY_CODES: &str = "Too many codes were sent. Try again later.";

/// One more of something limited to `per_hour` for `key`, or `message` with the wait.
pub async fn limit(
    redis: &ConnectionManager,
    key: &str,
    per_hour: u32,
    message: &'static str,
) -> Result<(), SharingError> {
    match ratelimit::hit(redis, key, per_hour, 3600).await? {
        Verdict::Allowed => Ok(()),
        Verdict::Refused { retry_after_secs } => Err(SharingError::RateLimited {
            message,
            retry_after_secs,
        }),
    }
}

/// One more code sent for a client address, within `code_sends_per_client` an hour; a call
/// without an address (another service on the caller's behalf) is not limited here.
pub async fn limit_client_codes(
    redis: &ConnectionManager,
    settings: &Settings,
    client_ip: &str,
) -> Result<(), SharingError> {
    if client_ip.is_empty() {
        return Ok(());
    }
    limit(
        redis,
        &format!("sharing:code-sends:client:{client_ip}"),
        settings.code_sends_per_client,
        TOO_MANY_CODES,
    )
    .await
}

/// A code about to be sent: the digits for the message, their hash for the store, and how long
/// it lasts.
pub struct NewCode {
    pub id: Uuid,
    pub digits: String,
    pub hash: Vec<u8>,
    pub ttl: chrono::Duration,
    pub expires_at: DateTime<Utc>,
}

impl NewCode {
    pub fn issue(settings: &Settings) -> Result<Self, SharingError> {
        let digits = access_code();
        let ttl = chrono::Duration::from_std(settings.code_ttl)?;
        Ok(Self {
            id: Uuid::now_v7(),
            hash: hash_secret(&digits),
            digits,
            ttl,
            expires_at: Utc::now() + ttl,
        })
    }

    /// Its lifetime in seconds, as the caller is told it.
    pub fn expires_in_secs(&self) -> i32 {
        i32::try_from(self.ttl.num_seconds()).unwrap_or(i32::MAX)
    }
}

/// A delivery that can still be opened: its share active, its link on.
fn open_or(found: Option<Opened>, err: SharingError) -> Result<Opened, SharingError> {
    match found {
        Some(opened) if opened.share_state == "active" && opened.delivery.active => Ok(opened),
        _ => Err(err),
    }
}

#[tracing::instrument(skip_all)]
pub async fn send_code(
    deps: &Deps<'_>,
    t1: &str,
    t2: &str,
    client_ip: &str,
) -> Result<CodeSent, SharingError> {
    let delivery_id = deps
        .links
        .recipient(t1, t2)
        .ok_or(SharingError::LinkInvalid)?;
    let mut conn = deps.pool.acquire().await?;
    let opened = open_or(
        deliveries::open(&mut conn, delivery_id).await?,
        SharingError::LinkInvalid,
    )?;
    drop(conn);
    let d = &opened.delivery;
    limit(
        deps.redis,
        &format!("sharing:code-sends:delivery:{}", d.id),
        deps.settings.code_sends_per_recipient,
        TOO_MANY_CODES,
    )
    .await?;
    limit_client_codes(deps.redis, deps.settings, client_ip).await?;
    let code = NewCode::issue(deps.settings)?;
    let mut tx = deps.pool.begin().await?;
    access::insert_code(&mut tx, code.id, d.id, &code.hash, code.expires_at).await?;
    deliveries::advance(&mut tx, d.id, "opened").await?;
    for item in shares::items(&mut tx, d.share_id).await? {
        custody::append(
            &mut tx,
            opened.owner_id,
            item.item_id,
            Whose::delivery(d.share_id, d.id),
            Kind::CodeSent,
            Utc::now(),
            &format!("to {}", d.sent_to),
        )
        .await?;
    }
    // The code goes out before the commit: if it cannot be sent, no code exists.
    let (digits, minutes) = (&code.digits, code.ttl.num_minutes());
    deps.messengers
        .send(
            &d.channel,
            &d.address,
            "Your Evidentia access code",
            &format!(
                "Your Evidentia access code is {digits}. It opens the files shared with you and expires in {minutes} minutes. If you did not ask for it, ignore this message."
            ),
        )
        .await?;
    tx.commit().await?;
    Ok(CodeSent {
        code_id: code.id,
        sent_to_masked: Recipient::masked(&d.channel, &d.address, &d.sent_to),
        copy_type: CopyType::from_db(&opened.copy_type),
        expires_in_secs: code.expires_in_secs(),
    })
}

/// The code as typed, without spaces: six digits, else a field error.
pub fn six_digits(typed: &str) -> Result<String, SharingError> {
    let typed: String = typed.chars().filter(|c| !c.is_whitespace()).collect();
    if typed.len() == 6 && typed.bytes().all(|b| b.is_ascii_digit()) {
        Ok(typed)
    } else {
        Err(SharingError::invalid(
            "confirmation_code",
            "Enter the 6-digit code.",
        ))
    }
}

/// A code can be checked once, until it expires, within its tries.
pub fn still_usable(
    used_at: Option<DateTime<Utc>>,
    expires_at: DateTime<Utc>,
    tries: i32,
    max_tries: i32,
) -> Result<(), SharingError> {
    if used_at.is_some() || expires_at <= Utc::now() || tries >= max_tries {
        Err(SharingError::CodeExpired)
    } else {
        Ok(())
    }
}

/// A wrong code, its try counted: `message` while tries are left, then the code has expired.
pub fn wrong_code(tries: i32, max_tries: i32, message: &str) -> SharingError {
    if tries >= max_tries {
        SharingError::CodeExpired
    } else {
        SharingError::invalid("confirmation_code", message)
    }
}

#[tracing::instrument(skip_all, fields(code.id = %code_id))]
pub async fn check_code(
    deps: &Deps<'_>,
    code_id: Uuid,
    typed: &str,
) -> Result<Granted, SharingError> {
    let typed = six_digits(typed)?;
    let mut tx = deps.pool.begin().await?;
    let code = access::lock_code(&mut tx, code_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    still_usable(
        code.used_at,
        code.expires_at,
        code.tries,
        deps.settings.code_tries,
    )?;
    let opened = open_or(
        deliveries::open(&mut tx, code.delivery_id).await?,
        SharingError::LinkInvalid,
    )?;
    if hash_secret(&typed) != code.code_hash {
        let tries = access::count_try(&mut tx, code_id).await?;
        tx.commit().await?;
        return Err(wrong_code(
            tries,
            deps.settings.code_tries,
            "The code is wrong. Check it and try again.",
        ));
    }
    access::use_code(&mut tx, code_id).await?;
    let token = secret();
    let ttl = chrono::Duration::from_std(deps.settings.access_token_ttl)?;
    let expires_at = Utc::now() + ttl;
    access::insert_token(&mut tx, &hash_secret(&token), code.delivery_id, expires_at).await?;
    deliveries::advance(&mut tx, code.delivery_id, "code_checked").await?;
    for item in shares::items(&mut tx, opened.delivery.share_id).await? {
        custody::append(
            &mut tx,
            opened.owner_id,
            item.item_id,
            Whose::delivery(opened.delivery.share_id, opened.delivery.id),
            Kind::CodeChecked,
            Utc::now(),
            &format!("by {}", opened.delivery.sent_to),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Granted {
        token,
        copy_type: CopyType::from_db(&opened.copy_type),
        expires_at,
    })
}

/// How a recipient presents themselves: a checked code's token, or a public link.
#[derive(Debug, Clone)]
pub enum Pass<'a> {
    Token(&'a str),
    Link(&'a str),
    /// A delivery already opened another way (a released futuregram's view link).
    Delivery(uuid::Uuid),
}

/// The delivery a pass opens, or why not.
pub async fn authorize(
    pool: &PgPool,
    links: &Links,
    pass: &Pass<'_>,
) -> Result<Opened, SharingError> {
    let mut conn = pool.acquire().await?;
    match pass {
        Pass::Token(token) => {
            let delivery = access::token_delivery(&mut conn, &hash_secret(token))
                .await?
                .ok_or(SharingError::AccessEnded)?;
            open_or(
                deliveries::open(&mut conn, delivery).await?,
                SharingError::AccessEnded,
            )
        }
        Pass::Delivery(delivery) => open_or(
            deliveries::open(&mut conn, *delivery).await?,
            SharingError::LinkInvalid,
        ),
        Pass::Link(link) => {
            let delivery = links.public(link).ok_or(SharingError::LinkInvalid)?;
            let opened = open_or(
                deliveries::open(&mut conn, delivery).await?,
                SharingError::LinkInvalid,
            )?;
            if opened.delivery.channel == "link" {
                Ok(opened)
            } else {
                Err(SharingError::LinkInvalid)
            }
        }
    }
}
