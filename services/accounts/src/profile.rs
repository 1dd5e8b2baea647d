//! Changes to the signed-in user's profile. Username, e-mail and phone are sensitive: they need a
//! password token (`verify_password`), and a new e-mail or phone takes effect only with a code
//! sent to it.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    codes::{self, Channel, Destination, Purpose},
    domain::{Address, Email, PhoneNumber, Username},
    error::AccountsError,
    history::{self, Action, Seen},
    startup::AppState,
    users,
};

/// Checks the password and answers a token that unlocks sensitive changes for a while.
pub async fn verify_password(
    state: &AppState,
    user_id: Uuid,
    password: &str,
    seen: &Seen,
) -> Result<(String, i64), AccountsError> {
    if password.is_empty() {
        return Err(AccountsError::field("password", crate::domain::REQUIRED));
    }
    let limits = &state.config.limits;
    if !evidentia_common::ratelimit::hit(
        &state.redis,
        &format!("accounts:login:account:{user_id}"),
        limits.logins_per_account,
        limits.login_window_seconds,
    )
    .await?
    {
        return Err(AccountsError::RateLimited);
    }
    let mut tx = state.pool.begin().await?;
    users::require_active(&mut tx, user_id).await?;
    if !users::check_password(&mut tx, user_id, password).await? {
        return Err(AccountsError::WrongCredentials);
    }
    let ttl = state.config.password_token_ttl_seconds;
    let token =
        codes::issue_verification(&mut tx, &user_id.to_string(), Purpose::Password, ttl).await?;
    history::record(&mut tx, user_id, Action::PasswordVerified, seen).await?;
    tx.commit().await?;
    Ok((token, ttl))
}

pub async fn update_names(
    conn: &mut PgConnection,
    user_id: Uuid,
    first_name: &str,
    last_name: &str,
    seen: &Seen,
) -> Result<(), AccountsError> {
    users::require_active(conn, user_id).await?;
    sqlx::query(
        "UPDATE users SET first_name = $2, last_name = $3, updated_at = now() WHERE id = $1",
    )
    .bind(user_id)
    .bind(first_name)
    .bind(last_name)
    .execute(&mut *conn)
    .await?;
    history::record(conn, user_id, Action::NamesChanged, seen).await
}

pub async fn change_username(
    state: &AppState,
    user_id: Uuid,
    username: &Username,
    password_token: &str,
    seen: &Seen,
) -> Result<(), AccountsError> {
    let mut tx = state.pool.begin().await?;
    users::require_active(&mut tx, user_id).await?;
    codes::check_password_token(&mut tx, password_token, user_id).await?;
    sqlx::query("UPDATE users SET username = $2, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .bind(username.as_str())
        .execute(&mut *tx)
        .await
        .map_err(|e| renamed(users::unique_violation(e), "username", "new_username"))?;
    history::record(&mut tx, user_id, Action::UsernameChanged, seen).await?;
    tx.commit().await?;
    Ok(())
}

/// A taken value is reported on the request's own field name.
fn renamed(err: AccountsError, from: &str, to: &str) -> AccountsError {
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

/// The outcome of a two-step change.
pub enum Change {
    CodeSent {
        expires_in_seconds: i64,
        sent_to: String,
    },
    Changed,
}

pub async fn change_email(
    state: &AppState,
    user_id: Uuid,
    email: &Email,
    password_token: &str,
    code: Option<&str>,
    seen: &Seen,
) -> Result<Change, AccountsError> {
    let subject = format!("{user_id}:{}", email.as_str());
    let mut conn = state.pool.acquire().await?;
    users::require_active(&mut conn, user_id).await?;
    codes::check_password_token(&mut conn, password_token, user_id).await?;
    let taken: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2)",
    )
    .bind(email.as_str())
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if taken {
        return Err(AccountsError::field("new_email", users::EMAIL_TAKEN));
    }
    let Some(code) = code else {
        let to = Destination::email(email.as_str());
        let ttl = codes::send(state, &subject, Purpose::EmailChange, &to).await?;
        history::record(&mut conn, user_id, Action::CodeSent, seen).await?;
        return Ok(Change::CodeSent {
            expires_in_seconds: ttl,
            sent_to: to.masked,
        });
    };
    drop(conn);
    let token = codes::verify(state, &subject, code, Purpose::EmailChange).await?;
    let mut tx = state.pool.begin().await?;
    codes::spend_verification(&mut tx, &token, &subject, Purpose::EmailChange).await?;
    sqlx::query("UPDATE users SET email = $2, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .bind(email.as_str())
        .execute(&mut *tx)
        .await
        .map_err(|e| renamed(users::unique_violation(e), "email", "new_email"))?;
    history::record(&mut tx, user_id, Action::EmailChanged, seen).await?;
    tx.commit().await?;
    Ok(Change::Changed)
}

pub async fn change_phone(
    state: &AppState,
    user_id: Uuid,
    phone: &PhoneNumber,
    password_token: &str,
    code: Option<&str>,
    seen: &Seen,
) -> Result<Change, AccountsError> {
    let subject = format!("{user_id}:{}{}", phone.country_code, phone.national_number);
    let mut conn = state.pool.acquire().await?;
    users::require_active(&mut conn, user_id).await?;
    codes::check_password_token(&mut conn, password_token, user_id).await?;
    let taken: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM users WHERE phone_country_code = $1 AND phone_national_number = $2 AND id <> $3)",
    )
    .bind(&phone.country_code)
    .bind(&phone.national_number)
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    if taken {
        return Err(AccountsError::field("new_phone_number", users::PHONE_TAKEN));
    }
    let Some(code) = code else {
        let to = Destination::phone(&phone.country_code, &phone.national_number);
        let ttl = codes::send(state, &subject, Purpose::PhoneChange, &to).await?;
        history::record(&mut conn, user_id, Action::CodeSent, seen).await?;
        return Ok(Change::CodeSent {
            expires_in_seconds: ttl,
            sent_to: to.masked,
        });
    };
    drop(conn);
    let token = codes::verify(state, &subject, code, Purpose::PhoneChange).await?;
    let mut tx = state.pool.begin().await?;
    codes::spend_verification(&mut tx, &token, &subject, Purpose::PhoneChange).await?;
    sqlx::query(
        "UPDATE users SET phone_country_code = $2, phone_national_number = $3, updated_at = now() WHERE id = $1",
    )
    .bind(user_id)
    .bind(&phone.country_code)
    .bind(&phone.national_number)
    .execute(&mut *tx)
    .await
    .map_err(|e| renamed(users::unique_violation(e), "phone_number", "new_phone_number"))?;
    history::record(&mut tx, user_id, Action::PhoneChanged, seen).await?;
    tx.commit().await?;
    Ok(Change::Changed)
}

pub async fn change_address(
    conn: &mut PgConnection,
    user_id: Uuid,
    address: &Address,
    seen: &Seen,
) -> Result<(), AccountsError> {
    users::require_active(conn, user_id).await?;
    sqlx::query(
        "UPDATE users SET country = $2, apartment_number = $3, province = $4, street = $5, house = $6, \
         city = $7, zip_code = $8, updated_at = now() WHERE id = $1",
    )
    .bind(user_id)
    .bind(&address.country)
    .bind(&address.apartment_number)
    .bind(&address.province)
    .bind(&address.street)
    .bind(&address.house)
    .bind(&address.city)
    .bind(&address.zip_code)
    .execute(&mut *conn)
    .await?;
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
    users::require_active(conn, user_id).await?;
    sqlx::query("UPDATE users SET communication_method = $2, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .bind(channel.as_str())
        .execute(&mut *conn)
        .await?;
    history::record(conn, user_id, Action::CommunicationMethodChanged, seen).await
}
