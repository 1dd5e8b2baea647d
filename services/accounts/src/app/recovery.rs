//! Recovery for someone who cannot sign in: whether a phone is registered, where a reset code can
//! go, the username sent by e-mail or SMS, and a new password from a code (which ends every other
//! session). Deleted accounts are recovered with `deletion::recover`, not here.

use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        codes, history, passwords,
        sender::Sender,
        sessions::{self, TokenPair},
        verifications,
    },
    config::{Limits, SessionSettings},
    domain::{Action, Channel, Destination, Email, Password, PhoneNumber, Purpose, REQUIRED, Seen},
    error::AccountsError,
    store::users::{self, Contact},
};

pub const NO_USERNAME: &str = "No account found with this username.";
pub const NO_EMAIL: &str = "No account found with this email address.";
pub const NO_PHONE: &str = "No account found with this phone number.";

fn email_destination(contact: &Contact) -> Destination {
    Destination::email(&contact.email)
}

fn phone_destination(contact: &Contact) -> Option<Destination> {
    (!contact.phone_national_number.is_empty())
        .then(|| Destination::phone(&contact.phone_country_code, &contact.phone_national_number))
}

/// Where codes go: the chosen channel, else the account's communication method.
fn destination(contact: &Contact, channel: Option<Channel>) -> Result<Destination, AccountsError> {
    let channel = channel
        .or_else(|| Channel::parse(&contact.communication_method))
        .unwrap_or(Channel::Email);
    match channel {
        Channel::Email => Ok(email_destination(contact)),
        Channel::Sms => phone_destination(contact)
            .ok_or_else(|| AccountsError::field("channel", "This account has no phone number.")),
    }
}

/// The active account a username or an e-mail names.
async fn by_login(conn: &mut PgConnection, login: &str) -> Result<Contact, AccountsError> {
    users::contact_by_login(conn, &login.trim().to_lowercase())
        .await?
        .ok_or_else(|| AccountsError::field("username", NO_USERNAME))
}

pub async fn phone_registered(
    conn: &mut PgConnection,
    phone: &PhoneNumber,
) -> Result<bool, AccountsError> {
    let found = users::contact_by_phone(conn, &phone.country_code, &phone.national_number).await?;
    Ok(found.is_some())
}

/// Where a reset code can go, masked.
#[derive(Debug)]
pub struct Options {
    pub email_hint: String,
    pub phone_hint: Option<String>,
    pub communication_method: String,
}

pub async fn options(conn: &mut PgConnection, login: &str) -> Result<Options, AccountsError> {
    if login.trim().is_empty() {
        return Err(AccountsError::field("username", REQUIRED));
    }
    let contact = by_login(conn, login).await?;
    Ok(Options {
        email_hint: email_destination(&contact).masked,
        phone_hint: phone_destination(&contact).map(|d| d.masked),
        communication_method: contact.communication_method,
    })
}

async fn send_username(
    sender: &Sender<'_>,
    contact: &Contact,
    to: &Destination,
    seen: &Seen,
) -> Result<String, AccountsError> {
    sender.limit(to, &seen.ip).await?;
    let text = format!(
        "Your Evidentia username is {}\n\nIf you did not ask for it, ignore this message.",
        contact.username
    );
    sender.deliver(to, "Your Evidentia username", &text).await?;
    Ok(to.masked.clone())
}

/// Sends the username to the account's e-mail; answers where it went, masked.
pub async fn username_by_email(
    pool: &PgPool,
    sender: &Sender<'_>,
    email: &Email,
    seen: &Seen,
) -> Result<String, AccountsError> {
    let mut conn = pool.acquire().await?;
    let contact = users::contact_by_email(&mut conn, email.as_str())
        .await?
        .ok_or_else(|| AccountsError::field("email", NO_EMAIL))?;
    drop(conn);
    send_username(sender, &contact, &email_destination(&contact), seen).await
}

/// Sends the username to the phone; answers where it went, masked.
pub async fn username_by_phone(
    pool: &PgPool,
    sender: &Sender<'_>,
    phone: &PhoneNumber,
    seen: &Seen,
) -> Result<String, AccountsError> {
    let mut conn = pool.acquire().await?;
    let contact = users::contact_by_phone(&mut conn, &phone.country_code, &phone.national_number)
        .await?
        .ok_or_else(|| AccountsError::field("phone_number", NO_PHONE))?;
    drop(conn);
    let to = Destination::phone(&phone.country_code, &phone.national_number);
    send_username(sender, &contact, &to, seen).await
}

/// Sends a password-reset code to the account's e-mail or phone; answers how long it lives and
/// where it went, masked.
pub async fn send_reset_code(
    pool: &PgPool,
    sender: &Sender<'_>,
    login: &str,
    channel: Option<Channel>,
    seen: &Seen,
) -> Result<(i64, String), AccountsError> {
    let mut conn = pool.acquire().await?;
    let contact = by_login(&mut conn, login).await?;
    let to = destination(&contact, channel)?;
    let subject = contact.id.to_string();
    let ttl = codes::send(
        pool,
        sender,
        &subject,
        Purpose::PasswordReset,
        &to,
        &seen.ip,
    )
    .await?;
    history::record(&mut conn, contact.id, Action::CodeSent, seen).await?;
    Ok((ttl, to.masked))
}

pub async fn verify_reset_code(
    pool: &PgPool,
    limits: &Limits,
    login: &str,
    code: &str,
) -> Result<String, AccountsError> {
    let mut conn = pool.acquire().await?;
    let contact = by_login(&mut conn, login).await?;
    drop(conn);
    let subject = contact.id.to_string();
    codes::verify(pool, limits, &subject, code, Purpose::PasswordReset).await
}

/// What proves the right to set a new password.
#[derive(Debug)]
pub enum Proof<'a> {
    /// Forgot password: the account and the verification of its reset code.
    Recovery {
        login: &'a str,
        verification_token: &'a str,
    },
    /// Change password: the signed-in user and their password token.
    Signed {
        user_id: Uuid,
        password_token: &'a str,
    },
}

/// Sets the new password, ends every session of the user and starts a new one for this device.
#[tracing::instrument(skip_all)]
pub async fn reset_password(
    pool: &PgPool,
    redis: &ConnectionManager,
    settings: &SessionSettings,
    proof: Proof<'_>,
    new_password: Password,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let mut tx = pool.begin().await?;
    let (user_id, action) = match proof {
        Proof::Recovery {
            login,
            verification_token,
        } => {
            let contact = by_login(&mut tx, login).await?;
            let subject = contact.id.to_string();
            let purpose = Purpose::PasswordReset;
            verifications::spend(&mut tx, verification_token, &subject, purpose).await?;
            (contact.id, Action::PasswordReset)
        }
        Proof::Signed {
            user_id,
            password_token,
        } => {
            sessions::require_active(&mut tx, user_id).await?;
            let subject = user_id.to_string();
            verifications::spend(&mut tx, password_token, &subject, Purpose::Password).await?;
            (user_id, Action::PasswordChanged)
        }
    };
    passwords::set(&mut tx, user_id, new_password).await?;
    sessions::end_all(&mut tx, settings, redis, user_id).await?;
    history::record(&mut tx, user_id, action, seen).await?;
    let pair = sessions::start(&mut tx, settings, user_id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %user_id, "password set; every other session ended");
    Ok(pair)
}
