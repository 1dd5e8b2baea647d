//! Recovery for someone who cannot sign in: whether a phone is registered, where a reset code can
//! go, the username sent by e-mail or SMS, and a new password from a code (which ends every other
//! session). Deleted accounts are recovered with `deletion::recover`, not here.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    codes::{self, Channel, Destination, Purpose},
    domain::{Email, Password, PhoneNumber},
    error::AccountsError,
    history::{self, Action, Seen},
    state::AppState,
    tokens::{self, TokenPair},
    users,
};

pub const NO_USERNAME: &str = "No account found with this username.";
pub const NO_EMAIL: &str = "No account found with this email address.";
pub const NO_PHONE: &str = "No account found with this phone number.";

#[derive(Debug, sqlx::FromRow)]
pub struct Contact {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub phone_country_code: String,
    pub phone_national_number: String,
    pub communication_method: String,
}

const CONTACT: &str = "SELECT id, username, email, phone_country_code, phone_national_number, communication_method FROM users";

/// The active account a username or an e-mail names.
pub async fn by_login(conn: &mut PgConnection, login: &str) -> Result<Contact, AccountsError> {
    sqlx::query_as(&format!(
        "{CONTACT} WHERE (lower(username) = $1 OR lower(email) = $1) AND deleted_at IS NULL LIMIT 1"
    ))
    .bind(login.trim().to_lowercase())
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| AccountsError::field("username", NO_USERNAME))
}

async fn by_phone(
    conn: &mut PgConnection,
    phone: &PhoneNumber,
) -> Result<Option<Contact>, AccountsError> {
    Ok(sqlx::query_as(&format!(
        "{CONTACT} WHERE phone_country_code = $1 AND phone_national_number = $2 AND deleted_at IS NULL"
    ))
    .bind(&phone.country_code)
    .bind(&phone.national_number)
    .fetch_optional(conn)
    .await?)
}

pub async fn phone_registered(
    conn: &mut PgConnection,
    phone: &PhoneNumber,
) -> Result<bool, AccountsError> {
    Ok(by_phone(conn, phone).await?.is_some())
}

impl Contact {
    pub fn email_destination(&self) -> Destination {
        Destination::email(&self.email)
    }

    pub fn phone_destination(&self) -> Option<Destination> {
        (!self.phone_national_number.is_empty())
            .then(|| Destination::phone(&self.phone_country_code, &self.phone_national_number))
    }

    /// Where codes go: the chosen channel, else the account's communication method.
    pub fn destination(&self, channel: Option<Channel>) -> Result<Destination, AccountsError> {
        let channel = channel
            .or_else(|| Channel::parse(&self.communication_method))
            .unwrap_or(Channel::Email);
        match channel {
            Channel::Email => Ok(self.email_destination()),
            Channel::Sms => self.phone_destination().ok_or_else(|| {
                AccountsError::field("channel", "This account has no phone number.")
            }),
        }
    }
}

pub struct Options {
    pub email_hint: String,
    pub phone_hint: Option<String>,
    pub communication_method: String,
}

pub async fn options(conn: &mut PgConnection, login: &str) -> Result<Options, AccountsError> {
    if login.trim().is_empty() {
        return Err(AccountsError::field("username", crate::domain::REQUIRED));
    }
    let contact = by_login(conn, login).await?;
    Ok(Options {
        email_hint: contact.email_destination().masked,
        phone_hint: contact.phone_destination().map(|d| d.masked),
        communication_method: contact.communication_method,
    })
}

async fn send_username(
    state: &AppState,
    contact: &Contact,
    to: &Destination,
    seen: &Seen,
) -> Result<String, AccountsError> {
    codes::limit_sends(state, to, &seen.ip).await?;
    let text = format!(
        "Your Evidentia username is {}\n\nIf you did not ask for it, ignore this message.",
        contact.username
    );
    codes::deliver(state, to, "Your Evidentia username", &text).await?;
    Ok(to.masked.clone())
}

pub async fn username_by_email(
    state: &AppState,
    email: &Email,
    seen: &Seen,
) -> Result<String, AccountsError> {
    let mut conn = state.pool.acquire().await?;
    let contact: Contact = sqlx::query_as(&format!(
        "{CONTACT} WHERE lower(email) = $1 AND deleted_at IS NULL"
    ))
    .bind(email.as_str())
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| AccountsError::field("email", NO_EMAIL))?;
    send_username(state, &contact, &contact.email_destination(), seen).await
}

pub async fn username_by_phone(
    state: &AppState,
    phone: &PhoneNumber,
    seen: &Seen,
) -> Result<String, AccountsError> {
    let mut conn = state.pool.acquire().await?;
    let contact = by_phone(&mut conn, phone)
        .await?
        .ok_or_else(|| AccountsError::field("phone_number", NO_PHONE))?;
    let to = Destination::phone(&phone.country_code, &phone.national_number);
    send_username(state, &contact, &to, seen).await
}

/// Sends a password-reset code to the account's e-mail or phone.
pub async fn send_reset_code(
    state: &AppState,
    login: &str,
    channel: Option<Channel>,
    seen: &Seen,
) -> Result<(i64, String), AccountsError> {
    let mut conn = state.pool.acquire().await?;
    let contact = by_login(&mut conn, login).await?;
    let to = contact.destination(channel)?;
    let ttl = codes::send(
        state,
        &contact.id.to_string(),
        Purpose::PasswordReset,
        &to,
        &seen.ip,
    )
    .await?;
    history::record(&mut conn, contact.id, Action::CodeSent, seen).await?;
    Ok((ttl, to.masked))
}

pub async fn verify_reset_code(
    state: &AppState,
    login: &str,
    code: &str,
) -> Result<String, AccountsError> {
    let mut conn = state.pool.acquire().await?;
    let contact = by_login(&mut conn, login).await?;
    drop(conn);
    codes::verify(state, &contact.id.to_string(), code, Purpose::PasswordReset).await
}

/// What proves the right to set a new password.
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
pub async fn reset_password(
    state: &AppState,
    proof: Proof<'_>,
    new_password: Password,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let mut tx = state.pool.begin().await?;
    let (user_id, action) = match proof {
        Proof::Recovery {
            login,
            verification_token,
        } => {
            let contact = by_login(&mut tx, login).await?;
            codes::spend_verification(
                &mut tx,
                verification_token,
                &contact.id.to_string(),
                Purpose::PasswordReset,
            )
            .await?;
            (contact.id, Action::PasswordReset)
        }
        Proof::Signed {
            user_id,
            password_token,
        } => {
            users::require_active(&mut tx, user_id).await?;
            codes::spend_verification(
                &mut tx,
                password_token,
                &user_id.to_string(),
                Purpose::Password,
            )
            .await?;
            (user_id, Action::PasswordChanged)
        }
    };
    users::set_password(&mut tx, user_id, new_password).await?;
    tokens::revoke_all(&mut tx, &state.config, &state.redis, user_id).await?;
    history::record(&mut tx, user_id, action, seen).await?;
    let pair = tokens::issue(&mut tx, &state.config, user_id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %user_id, "password set; every other session ended");
    Ok(pair)
}
