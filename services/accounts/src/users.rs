//! Accounts: sign-up, sign-in, availability and the profile.

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use evidentia_common::{errors::FieldError, outbox, ratelimit, time::timestamp};
use evidentia_proto::events::v1::AccountCreated;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    codes::{self, Purpose},
    domain::{Email, Password, PhoneNumber, Username},
    error::AccountsError,
    startup::AppState,
    tokens::{self, TokenPair},
};

/// A validated sign-up.
#[derive(Debug)]
pub struct NewAccount {
    pub username: Username,
    pub email: Email,
    pub phone: PhoneNumber,
    pub password: Password,
    pub first_name: String,
    pub last_name: String,
    pub verification_token: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct User {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone_country_code: String,
    pub phone_national_number: String,
    pub account_type: String,
    pub communication_method: String,
    pub country: String,
    pub apartment_number: String,
    pub province: String,
    pub street: String,
    pub house: String,
    pub city: String,
    pub zip_code: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

const USER_COLUMNS: &str = "id, username, email, first_name, last_name, phone_country_code, phone_national_number, \
     account_type, communication_method, country, apartment_number, province, street, house, city, zip_code, created_at";

const USERNAME_TAKEN: &str = "A user with that username already exists.";
const EMAIL_TAKEN: &str = "A user with that email already exists.";
const PHONE_TAKEN: &str = "A user with that phone number already exists.";

/// Which of the given values are still free (true = available).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Availability {
    pub email: Option<bool>,
    pub username: Option<bool>,
    pub phone_number: Option<bool>,
}

pub async fn availability(
    conn: &mut PgConnection,
    email: Option<&Email>,
    username: Option<&Username>,
    phone: Option<&PhoneNumber>,
) -> Result<Availability, AccountsError> {
    let mut result = Availability::default();
    if let Some(email) = email {
        let taken: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1))",
        )
        .bind(email.as_str())
        .fetch_one(&mut *conn)
        .await?;
        result.email = Some(!taken);
    }
    if let Some(username) = username {
        let taken: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1))",
        )
        .bind(username.as_str())
        .fetch_one(&mut *conn)
        .await?;
        result.username = Some(!taken);
    }
    if let Some(phone) = phone {
        let taken: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM users WHERE phone_country_code = $1 AND phone_national_number = $2)",
        )
        .bind(&phone.country_code)
        .bind(&phone.national_number)
        .fetch_one(&mut *conn)
        .await?;
        result.phone_number = Some(!taken);
    }
    Ok(result)
}

async fn hash_password(password: Password) -> Result<String, AccountsError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.expose().as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hash password: {e}"))
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(AccountsError::Internal)
}

async fn password_matches(hash: String, password: String) -> Result<bool, AccountsError> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&hash).map_err(|e| anyhow::anyhow!("stored hash: {e}"))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(anyhow::Error::from)?
}

/// Creates an individual account from a verified e-mail, publishes `AccountCreated` in the same
/// transaction, and starts a session.
#[tracing::instrument(skip_all)]
pub async fn create(state: &AppState, account: NewAccount) -> Result<TokenPair, AccountsError> {
    let id = Uuid::now_v7();
    let password_hash = hash_password(account.password.clone()).await?;
    let mut tx = state.pool.begin().await?;
    codes::spend_verification(
        &mut tx,
        &account.verification_token,
        &account.email,
        Purpose::SignUp,
    )
    .await?;
    let inserted = sqlx::query(
        "INSERT INTO users (id, username, email, password_hash, first_name, last_name, phone_country_code, phone_national_number) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(account.username.as_str())
    .bind(account.email.as_str())
    .bind(&password_hash)
    .bind(&account.first_name)
    .bind(&account.last_name)
    .bind(&account.phone.country_code)
    .bind(&account.phone.national_number)
    .execute(&mut *tx)
    .await;
    if let Err(err) = inserted {
        let constraint = err
            .as_database_error()
            .and_then(|e| e.constraint())
            .map(str::to_owned);
        return Err(match constraint.as_deref() {
            Some("users_username_key") => AccountsError::field("username", USERNAME_TAKEN),
            Some("users_email_key") => AccountsError::field("email", EMAIL_TAKEN),
            Some("users_phone_key") => AccountsError::field("phone_number", PHONE_TAKEN),
            _ => err.into(),
        });
    }
    outbox::enqueue(
        &mut tx,
        &AccountCreated {
            user_id: id.to_string(),
            username: account.username.as_str().to_owned(),
            email: account.email.as_str().to_owned(),
            first_name: account.first_name.clone(),
            last_name: account.last_name.clone(),
            account_type: "individual".to_owned(),
            phone_country_code: account.phone.country_code.clone(),
            phone_national_number: account.phone.national_number.clone(),
            occurred_at: Some(timestamp(chrono::Utc::now())),
        },
    )
    .await?;
    let pair = tokens::issue(&mut tx, &state.config, id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %id, "account created");
    Ok(pair)
}

/// Signs in with a username or e-mail. Rate-limited per account and per client address; the
/// same message answers an unknown user and a wrong password.
#[tracing::instrument(skip_all)]
pub async fn login(
    state: &AppState,
    login: &str,
    password: &str,
    client_ip: Option<&str>,
) -> Result<TokenPair, AccountsError> {
    let login = login.trim().to_lowercase();
    if login.is_empty() {
        return Err(AccountsError::Invalid(vec![FieldError::new(
            "username",
            crate::domain::REQUIRED,
        )]));
    }
    if password.is_empty() {
        return Err(AccountsError::Invalid(vec![FieldError::new(
            "password",
            crate::domain::REQUIRED,
        )]));
    }
    let limits = &state.config.limits;
    let window = limits.login_window_seconds;
    if let Some(ip) = client_ip
        && !ratelimit::hit(
            &state.redis,
            &format!("accounts:login:client:{ip}"),
            limits.logins_per_client,
            window,
        )
        .await?
    {
        return Err(AccountsError::RateLimited);
    }
    let found: Option<(Uuid, String)> = sqlx::query_as(
        "SELECT id, password_hash FROM users WHERE lower(username) = $1 OR lower(email) = $1 LIMIT 1",
    )
    .bind(&login)
    .fetch_optional(&state.pool)
    .await?;
    // Per account, whichever name was typed; an unknown login is counted under itself.
    let account_key = match &found {
        Some((user_id, _)) => format!("accounts:login:account:{user_id}"),
        None => format!("accounts:login:unknown:{login}"),
    };
    if !ratelimit::hit(
        &state.redis,
        &account_key,
        limits.logins_per_account,
        window,
    )
    .await?
    {
        return Err(AccountsError::RateLimited);
    }
    let Some((user_id, hash)) = found else {
        return Err(AccountsError::WrongCredentials);
    };
    if !password_matches(hash, password.to_owned()).await? {
        return Err(AccountsError::WrongCredentials);
    }
    ratelimit::reset(&state.redis, &account_key).await?;
    let mut tx = state.pool.begin().await?;
    let pair = tokens::issue(&mut tx, &state.config, user_id).await?;
    tx.commit().await?;
    Ok(pair)
}

pub async fn profile(conn: &mut PgConnection, user_id: Uuid) -> Result<User, AccountsError> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
    sqlx::query_as(&sql)
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(AccountsError::UserNotFound)
}
