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
    state::AppState,
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
    let mut tx = state.pool.begin().await?;
    users::require_active(&mut tx, user_id).await?;
    // Guessing a password here waits out the same backoff as signing in from this address.
    if !users::check_password(&mut tx, state, user_id, &seen.ip, password).await? {
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

/// A new e-mail or phone number: it takes effect only with the code sent to it.
pub enum NewContact<'a> {
    Email(&'a Email),
    Phone(&'a PhoneNumber),
}

impl NewContact<'_> {
    /// The code is for this user and this new value, so a code for another value is no use.
    fn subject(&self, user_id: Uuid) -> String {
        match self {
            Self::Email(email) => format!("{user_id}:{}", email.as_str()),
            Self::Phone(phone) => {
                format!("{user_id}:{}{}", phone.country_code, phone.national_number)
            }
        }
    }

    fn purpose(&self) -> Purpose {
        match self {
            Self::Email(_) => Purpose::EmailChange,
            Self::Phone(_) => Purpose::PhoneChange,
        }
    }

    fn destination(&self) -> Destination {
        match self {
            Self::Email(email) => Destination::email(email.as_str()),
            Self::Phone(phone) => Destination::phone(&phone.country_code, &phone.national_number),
        }
    }

    /// The request field and the users column a taken value is reported for.
    fn fields(&self) -> (&'static str, &'static str) {
        match self {
            Self::Email(_) => ("new_email", "email"),
            Self::Phone(_) => ("new_phone_number", "phone_number"),
        }
    }

    async fn taken(&self, conn: &mut PgConnection, user_id: Uuid) -> Result<bool, AccountsError> {
        match self {
            Self::Email(email) => users::email_taken(conn, email, Some(user_id)).await,
            Self::Phone(phone) => users::phone_taken(conn, phone, Some(user_id)).await,
        }
    }

    async fn apply(&self, conn: &mut PgConnection, user_id: Uuid) -> Result<(), sqlx::Error> {
        let query = match self {
            Self::Email(email) => {
                sqlx::query("UPDATE users SET email = $2, updated_at = now() WHERE id = $1")
                    .bind(user_id)
                    .bind(email.as_str())
            }
            Self::Phone(phone) => sqlx::query(
                "UPDATE users SET phone_country_code = $2, phone_national_number = $3, updated_at = now() WHERE id = $1",
            )
            .bind(user_id)
            .bind(&phone.country_code)
            .bind(&phone.national_number),
        };
        query.execute(conn).await.map(|_| ())
    }

    fn action(&self) -> Action {
        match self {
            Self::Email(_) => Action::EmailChanged,
            Self::Phone(_) => Action::PhoneChanged,
        }
    }
}

/// Changes the e-mail or phone in two steps: without `code`, a code goes to the new value; with
/// it, the change takes effect.
pub async fn change_contact(
    state: &AppState,
    user_id: Uuid,
    contact: NewContact<'_>,
    password_token: &str,
    code: Option<&str>,
    seen: &Seen,
) -> Result<Change, AccountsError> {
    let subject = contact.subject(user_id);
    let (field, column) = contact.fields();
    let mut conn = state.pool.acquire().await?;
    users::require_active(&mut conn, user_id).await?;
    codes::check_password_token(&mut conn, password_token, user_id).await?;
    if contact.taken(&mut conn, user_id).await? {
        let message = match contact {
            NewContact::Email(_) => users::EMAIL_TAKEN,
            NewContact::Phone(_) => users::PHONE_TAKEN,
        };
        return Err(AccountsError::field(field, message));
    }
    let Some(code) = code else {
        let to = contact.destination();
        let ttl = codes::send(state, &subject, contact.purpose(), &to, &seen.ip).await?;
        history::record(&mut conn, user_id, Action::CodeSent, seen).await?;
        return Ok(Change::CodeSent {
            expires_in_seconds: ttl,
            sent_to: to.masked,
        });
    };
    drop(conn);
    let token = codes::verify(state, &subject, code, contact.purpose()).await?;
    let mut tx = state.pool.begin().await?;
    codes::spend_verification(&mut tx, &token, &subject, contact.purpose()).await?;
    contact
        .apply(&mut tx, user_id)
        .await
        .map_err(|e| renamed(users::unique_violation(e), column, field))?;
    history::record(&mut tx, user_id, contact.action(), seen).await?;
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
