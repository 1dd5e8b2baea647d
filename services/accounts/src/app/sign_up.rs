//! Signing up: which usernames, e-mails and phones are free, and a new account from a verified
//! e-mail (with an organization when one is named).

use evidentia_common::{outbox, time::timestamp};
use evidentia_proto::events::v1::AccountCreated;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        history, organizations, passwords,
        sessions::{self, TokenPair},
        verifications,
    },
    config::SessionSettings,
    domain::{
        Action, EMAIL_TAKEN, Email, NewAccount, PHONE_TAKEN, PhoneNumber, Purpose, Seen,
        USERNAME_TAKEN, Username,
    },
    error::AccountsError,
    store::users::{self, NewUser},
};

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
        result.email = Some(!users::email_taken(conn, email.as_str(), None).await?);
    }
    if let Some(username) = username {
        result.username = Some(!users::username_taken(conn, username.as_str()).await?);
    }
    if let Some(phone) = phone {
        let taken =
            users::phone_taken(conn, &phone.country_code, &phone.national_number, None).await?;
        result.phone_number = Some(!taken);
    }
    Ok(result)
}

/// Creates an account from a verified e-mail and starts a session. With an organization name the
/// account is an organization's and its owner.
#[tracing::instrument(skip_all)]
pub async fn create(
    pool: &PgPool,
    settings: &SessionSettings,
    account: NewAccount,
    organization_name: Option<String>,
    seen: &Seen,
) -> Result<TokenPair, AccountsError> {
    let password_hash = passwords::hash_password(account.password.clone()).await?;
    let mut tx = pool.begin().await?;
    verifications::spend(
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
    let pair = sessions::start(&mut tx, settings, id).await?;
    tx.commit().await?;
    tracing::info!(user.id = %id, account.kind = account_type, "account created");
    Ok(pair)
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
    let user = NewUser {
        id,
        username: account.username.as_str(),
        email: account.email.as_str(),
        password_hash,
        first_name: &account.first_name,
        last_name: &account.last_name,
        phone_country_code: &account.phone.country_code,
        phone_national_number: &account.phone.national_number,
        account_type,
    };
    users::insert(&mut *conn, &user)
        .await
        .map_err(unique_violation)?;
    let created = AccountCreated {
        user_id: id.to_string(),
        username: account.username.as_str().to_owned(),
        email: account.email.as_str().to_owned(),
        first_name: account.first_name.clone(),
        last_name: account.last_name.clone(),
        account_type: account_type.to_owned(),
        phone_country_code: account.phone.country_code.clone(),
        phone_national_number: account.phone.national_number.clone(),
        occurred_at: Some(timestamp(chrono::Utc::now())),
        referral_code: account.referral_code.clone(),
    };
    outbox::enqueue(&mut *conn, &created).await?;
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
