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
    domain::{Email, Fields, Password, PhoneNumber, Username},
    error::AccountsError,
    history::{self, Action, Seen},
    organizations,
    state::AppState,
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

pub const USERNAME_TAKEN: &str = "A user with that username already exists.";
pub const EMAIL_TAKEN: &str = "A user with that email already exists.";
pub const PHONE_TAKEN: &str = "A user with that phone number already exists.";

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
        result.email = Some(!email_taken(conn, email, None).await?);
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
        result.phone_number = Some(!phone_taken(conn, phone, None).await?);
    }
    Ok(result)
}

/// Whether an account (other than `except`) has this e-mail.
pub async fn email_taken(
    conn: &mut PgConnection,
    email: &Email,
    except: Option<Uuid>,
) -> Result<bool, AccountsError> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower($1) AND id IS DISTINCT FROM $2)",
    )
    .bind(email.as_str())
    .bind(except)
    .fetch_one(conn)
    .await?)
}

/// Whether an account (other than `except`) has this phone number.
pub async fn phone_taken(
    conn: &mut PgConnection,
    phone: &PhoneNumber,
    except: Option<Uuid>,
) -> Result<bool, AccountsError> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM users WHERE phone_country_code = $1 AND phone_national_number = $2 \
         AND id IS DISTINCT FROM $3)",
    )
    .bind(&phone.country_code)
    .bind(&phone.national_number)
    .bind(except)
    .fetch_one(conn)
    .await?)
}

pub async fn hash_password(password: Password) -> Result<String, AccountsError> {
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

/// Inserts a user in the caller's transaction, publishes `AccountCreated` and records the sign-up.
/// A taken username, e-mail or phone answers its field's message.
pub async fn insert(
    conn: &mut PgConnection,
    account: &NewAccount,
    password_hash: &str,
    account_type: &str,
    seen: &Seen,
) -> Result<Uuid, AccountsError> {
    let id = Uuid::now_v7();
    let inserted = sqlx::query(
        "INSERT INTO users (id, username, email, password_hash, first_name, last_name, phone_country_code, phone_national_number, account_type) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(id)
    .bind(account.username.as_str())
    .bind(account.email.as_str())
    .bind(password_hash)
    .bind(&account.first_name)
    .bind(&account.last_name)
    .bind(&account.phone.country_code)
    .bind(&account.phone.national_number)
    .bind(account_type)
    .execute(&mut *conn)
    .await;
    if let Err(err) = inserted {
        return Err(unique_violation(err));
    }
    outbox::enqueue(
        &mut *conn,
        &AccountCreated {
            user_id: id.to_string(),
            username: account.username.as_str().to_owned(),
            email: account.email.as_str().to_owned(),
            first_name: account.first_name.clone(),
            last_name: account.last_name.clone(),
            account_type: account_type.to_owned(),
            phone_country_code: account.phone.country_code.clone(),
            phone_national_number: account.phone.national_number.clone(),
            occurred_at: Some(timestamp(chrono::Utc::now())),
        },
    )
    .await?;
    history::record(conn, id, Action::SignUp, seen).await?;
    Ok(id)
}

/// The field message for a taken username, e-mail or phone, or the error itself.
pub fn unique_violation(err: sqlx::Error) -> AccountsError {
    let constraint = err
        .as_database_error()
        .and_then(|e| e.constraint())
        .map(str::to_owned);
    match constraint.as_deref() {
        Some("users_username_key") => AccountsError::field("username", USERNAME_TAKEN),
        Some("users_email_key") => AccountsError::field("email", EMAIL_TAKEN),
        Some("users_phone_key") => AccountsError::field("phone_number", PHONE_TAKEN),
        _ => err.into(),
    }
}

/// Creates an account from a verified e-mail and starts a session. With an organization name the
/// account is an organization's and its owner.
#[tracing::instrument(skip_all)]
pub async fn create(
    state: &AppState,
    account: NewAccount,
    organization_name: Option<String>,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let password_hash = hash_password(account.password.clone()).await?;
    let mut tx = state.pool.begin().await?;
    codes::spend_verification(
        &mut tx,
        &account.verification_token,
        account.email.as_str(),
        Purpose::SignUp,
    )
    .await?;
    let account_type = if organization_name.is_some() {
        "organization"
    } else {
        "individual"
    };
    let id = insert(&mut tx, &account, &password_hash, account_type, seen).await?;
    if let Some(name) = organization_name {
        organizations::found(&mut tx, id, &name, seen).await?;
    }
    let pair = tokens::issue(&mut tx, &state.config, id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %id, account.kind = account_type, "account created");
    Ok(pair)
}

#[derive(Debug, sqlx::FromRow)]
pub struct Credentials {
    pub id: Uuid,
    pub password_hash: String,
    pub deleted_at: Option<chrono::DateTime<chrono::Utc>>,
    pub recoverable_until: Option<chrono::DateTime<chrono::Utc>>,
}

/// The account a username or e-mail names, deleted ones included.
pub async fn find_by_login(
    conn: &mut PgConnection,
    login: &str,
) -> Result<Option<Credentials>, AccountsError> {
    Ok(sqlx::query_as(
        "SELECT id, password_hash, deleted_at, recoverable_until FROM users \
         WHERE lower(username) = $1 OR lower(email) = $1 LIMIT 1",
    )
    .bind(login.trim().to_lowercase())
    .fetch_optional(conn)
    .await?)
}

/// Checks a login and password the way sign-in does: required fields, failure backoff, one
/// message for an unknown user and a wrong password. A failed attempt on a known account is
/// recorded in its history.
///
/// Guessing is slowed, never turned into a lockout of the owner (OWASP's authentication
/// guidance): failures count per account and client address together, so a stranger hammering a
/// username only makes *their own* attempts wait, and per client address across accounts, where
/// only failures count, so an office behind one address signing in correctly is never slowed.
pub async fn authenticate(
    state: &AppState,
    login: &str,
    password: &str,
    seen: &Seen,
) -> Result<Credentials, AccountsError> {
    let login = login.trim().to_lowercase();
    let mut fields = Fields::default();
    if login.is_empty() {
        fields.check::<()>(Err(FieldError::new("username", crate::domain::REQUIRED)));
    }
    if password.is_empty() {
        fields.check::<()>(Err(FieldError::new("password", crate::domain::REQUIRED)));
    }
    fields.finish().map_err(AccountsError::Invalid)?;
    let client_key = format!("accounts:login:client:{}", seen.ip);
    if !seen.ip.is_empty() {
        AccountsError::limited(ratelimit::backoff_check(&state.redis, &client_key).await?)?;
    }
    let mut conn = state.pool.acquire().await?;
    let found = find_by_login(&mut conn, &login).await?;
    // Whichever name was typed, the account is one key; an unknown login is counted under itself.
    let account = match &found {
        Some(user) => user.id.to_string(),
        None => format!("unknown:{login}"),
    };
    let pair_key = attempts_key(&account, &seen.ip);
    AccountsError::limited(ratelimit::backoff_check(&state.redis, &pair_key).await?)?;
    let matched = match &found {
        Some(user) => password_matches(user.password_hash.clone(), password.to_owned()).await?,
        None => false,
    };
    if !matched {
        ratelimit::backoff_fail(&state.redis, &pair_key, state.config.limits.pair_backoff())
            .await?;
        if !seen.ip.is_empty() {
            ratelimit::backoff_fail(
                &state.redis,
                &client_key,
                state.config.limits.client_backoff(),
            )
            .await?;
        }
        if let Some(user) = &found {
            history::record(&mut conn, user.id, Action::SignInFailed, seen).await?;
        }
        return Err(AccountsError::WrongCredentials);
    }
    ratelimit::backoff_reset(&state.redis, &pair_key).await?;
    found.ok_or(AccountsError::WrongCredentials)
}

/// The backoff key of password attempts on one account from one client address (sign-in and
/// password verification share it).
pub fn attempts_key(account: &str, client_ip: &str) -> String {
    format!("accounts:login:pair:{account}:{client_ip}")
}

/// Signs in with a username or e-mail. A deleted account answers when it can be recovered, only
/// to someone who knows its password.
#[tracing::instrument(skip_all)]
pub async fn login(
    state: &AppState,
    login: &str,
    password: &str,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let user = authenticate(state, login, password, seen).await?;
    if user.deleted_at.is_some() {
        return Err(match user.recoverable_until {
            Some(until) if until > chrono::Utc::now() => AccountsError::AccountDeleted {
                recoverable_until: until,
            },
            _ => AccountsError::NotRecoverable,
        });
    }
    let mut tx = state.pool.begin().await?;
    history::record(&mut tx, user.id, Action::SignIn, seen).await?;
    let pair = tokens::issue(&mut tx, &state.config, user.id).await?;
    tx.commit().await?;
    Ok(pair)
}

/// Whether `password` is the user's (for password verification before sensitive changes).
pub async fn check_password(
    conn: &mut PgConnection,
    state: &AppState,
    user_id: Uuid,
    client_ip: &str,
    password: &str,
) -> Result<bool, AccountsError> {
    let key = attempts_key(&user_id.to_string(), client_ip);
    AccountsError::limited(ratelimit::backoff_check(&state.redis, &key).await?)?;
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(AccountsError::UserNotFound)?;
    let matched = password_matches(hash, password.to_owned()).await?;
    if matched {
        ratelimit::backoff_reset(&state.redis, &key).await?;
    } else {
        ratelimit::backoff_fail(&state.redis, &key, state.config.limits.pair_backoff()).await?;
    }
    Ok(matched)
}

/// Sets a new password.
pub async fn set_password(
    conn: &mut PgConnection,
    user_id: Uuid,
    password: Password,
) -> Result<(), AccountsError> {
    let hash = hash_password(password).await?;
    sqlx::query("UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1")
        .bind(user_id)
        .bind(hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// Fails with `Inactive` unless the signed-in user exists and is not deleted: an access token
/// outlives a deletion by at most its lifetime, and must not reach anything meanwhile.
pub async fn require_active(conn: &mut PgConnection, user_id: Uuid) -> Result<(), AccountsError> {
    let active: Option<bool> =
        sqlx::query_scalar("SELECT deleted_at IS NULL FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(conn)
            .await?;
    match active {
        Some(true) => Ok(()),
        _ => Err(AccountsError::Inactive),
    }
}

pub async fn profile(conn: &mut PgConnection, user_id: Uuid) -> Result<User, AccountsError> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1 AND deleted_at IS NULL");
    sqlx::query_as(&sql)
        .bind(user_id)
        .fetch_optional(conn)
        .await?
        .ok_or(AccountsError::Inactive)
}
