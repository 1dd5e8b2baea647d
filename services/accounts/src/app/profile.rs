//! The signed-in user's profile and its plain changes. Username, e-mail and phone are
//! sensitive: they need a password token (`verify_password`); a new e-mail or phone also takes a
//! code sent to it (`change_contact`).

use redis::aio::ConnectionManager;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{history, passwords, sessions, sign_up, verifications},
    config::Limits,
    domain::{Action, Address, Channel, Purpose, Seen, Username},
    error::AccountsError,
    store::{
        organizations::{self, Membership},
        users::{self, User},
    },
};

/// The profile and, for a participant, their organization and role.
#[derive(Debug)]
pub struct Profile {
    pub user: User,
    pub organization: Option<Membership>,
}

pub async fn get(conn: &mut PgConnection, user_id: Uuid) -> Result<Profile, AccountsError> {
    let user = users::active_profile(conn, user_id)
        .await?
        .ok_or(AccountsError::Inactive)?;
    let organization = organizations::membership(conn, user_id).await?;
    Ok(Profile { user, organization })
}

/// Checks the password and answers a token that unlocks sensitive changes for `ttl_seconds`.
pub async fn verify_password(
    pool: &PgPool,
    redis: &ConnectionManager,
    limits: &Limits,
    ttl_seconds: i64,
    user_id: Uuid,
    password: &str,
    seen: &Seen,
) -> Result<String, AccountsError> {
    if password.is_empty() {
        return Err(AccountsError::field("password", crate::domain::REQUIRED));
    }
    let mut tx = pool.begin().await?;
    sessions::require_active(&mut tx, user_id).await?;
    // Guessing a password here waits out the same backoff as signing in from this address.
    if !passwords::check(&mut tx, redis, limits, user_id, &seen.ip, password).await? {
        return Err(AccountsError::WrongCredentials);
    }
    let subject = user_id.to_string();
    let token = verifications::issue(&mut tx, &subject, Purpose::Password, ttl_seconds).await?;
    history::record(&mut tx, user_id, Action::PasswordVerified, seen).await?;
    tx.commit().await?;
    Ok(token)
}

pub async fn update_names(
    conn: &mut PgConnection,
    user_id: Uuid,
    first_name: &str,
    last_name: &str,
    seen: &Seen,
) -> Result<(), AccountsError> {
    sessions::require_active(conn, user_id).await?;
    users::set_names(conn, user_id, first_name, last_name).await?;
    history::record(conn, user_id, Action::NamesChanged, seen).await
}

pub async fn change_username(
    pool: &PgPool,
    user_id: Uuid,
    username: &Username,
    password_token: &str,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let mut tx = pool.begin().await?;
    sessions::require_active(&mut tx, user_id).await?;
    verifications::check_password_token(&mut tx, password_token, user_id).await?;
    users::set_username(&mut tx, user_id, username.as_str())
        .await
        .map_err(|e| renamed(sign_up::unique_violation(e), "username", "new_username"))?;
    history::record(&mut tx, user_id, Action::UsernameChanged, seen).await?;
    tx.commit().await?;
    Ok(())
}

/// A taken value is reported on the request's own field name.
pub fn renamed(err: AccountsError, from: &str, to: &str) -> AccountsError {
    match err {
        AccountsError::Invalid(mut errors) => {
            for e in &mut errors {
                if e.field == from {
                    e.field = to.to_owned();
                }
            }
            AccountsError::Invalid(errors)
        }
        other => other,
    }
}

pub async fn change_address(
    conn: &mut PgConnection,
    user_id: Uuid,
    address: &Address,
    seen: &Seen,
) -> Result<(), AccountsError> {
    sessions::require_active(conn, user_id).await?;
    users::set_address(conn, user_id, address).await?;
    history::record(conn, user_id, Action::AddressChanged, seen).await
}

pub async fn change_communication_method(
    conn: &mut PgConnection,
    user_id: Uuid,
    method: &str,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let Some(channel) = Channel::parse(method) else {
        return Err(AccountsError::field(
            "communication_method",
            "Choose email or sms.",
        ));
    };
    sessions::require_active(conn, user_id).await?;
    users::set_communication_method(conn, user_id, channel.as_str()).await?;
    history::record(conn, user_id, Action::CommunicationMethodChanged, seen).await
}
