//! A new e-mail or phone number, in two steps: without a code, one goes to the new value; with
//! it, the change takes effect. Both steps need a password token.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{codes, history, profile::renamed, sender::Sender, sessions, sign_up, verifications},
    domain::{Action, Destination, EMAIL_TAKEN, Email, PHONE_TAKEN, PhoneNumber, Purpose, Seen},
    error::AccountsError,
    store::users,
};

/// The outcome of a two-step change.
#[derive(Debug)]
pub enum Change {
    CodeSent {
        expires_in_seconds: i64,
        sent_to: String,
    },
    Changed,
}

/// A new e-mail or phone number: it takes effect only with the code sent to it.
#[derive(Debug)]
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

    fn taken_message(&self) -> &'static str {
        match self {
            Self::Email(_) => EMAIL_TAKEN,
            Self::Phone(_) => PHONE_TAKEN,
        }
    }

    /// The account's own e-mail or phone already: a code to it would change nothing.
    fn is_current(&self, user: &users::User) -> bool {
        match self {
            Self::Email(email) => user.email.eq_ignore_ascii_case(email.as_str()),
            Self::Phone(phone) => {
                user.phone_country_code == phone.country_code
                    && user.phone_national_number == phone.national_number
            }
        }
    }

    fn current_message(&self) -> &'static str {
        match self {
            Self::Email(_) => "This is already your e-mail address.",
            Self::Phone(_) => "This is already your phone number.",
        }
    }

    async fn taken(&self, conn: &mut PgConnection, user_id: Uuid) -> Result<bool, sqlx::Error> {
        match self {
            Self::Email(email) => users::email_taken(conn, email.as_str(), Some(user_id)).await,
            Self::Phone(phone) => {
                let (cc, nn) = (&phone.country_code, &phone.national_number);
                users::phone_taken(conn, cc, nn, Some(user_id)).await
            }
        }
    }

    async fn apply(&self, conn: &mut PgConnection, user_id: Uuid) -> Result<(), sqlx::Error> {
        match self {
            Self::Email(email) => users::set_email(conn, user_id, email.as_str()).await,
            Self::Phone(phone) => {
                let (cc, nn) = (&phone.country_code, &phone.national_number);
                users::set_phone(conn, user_id, cc, nn).await
            }
        }
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
#[tracing::instrument(skip_all)]
pub async fn change_contact(
    pool: &PgPool,
    sender: &Sender<'_>,
    user_id: Uuid,
    contact: NewContact<'_>,
    password_token: &str,
    code: Option<&str>,
    seen: &Seen,
) -> Result<Change, AccountsError> {
    let subject = contact.subject(user_id);
    let (field, column) = contact.fields();
    let mut conn = pool.acquire().await?;
    sessions::require_active(&mut conn, user_id).await?;
    verifications::check_password_token(&mut conn, password_token, user_id).await?;
    if contact.taken(&mut conn, user_id).await? {
        return Err(AccountsError::field(field, contact.taken_message()));
    }
    if let Some(user) = users::active_profile(&mut conn, user_id).await?
        && contact.is_current(&user)
    {
        return Err(AccountsError::field(field, contact.current_message()));
    }
    let Some(code) = code else {
        let to = contact.destination();
        let ttl = codes::send(pool, sender, &subject, contact.purpose(), &to, &seen.ip).await?;
        history::record(&mut conn, user_id, Action::CodeSent, seen).await?;
        return Ok(Change::CodeSent {
            expires_in_seconds: ttl,
            sent_to: to.masked,
        });
    };
    drop(conn);
    let token = codes::verify(pool, sender.limits, &subject, code, contact.purpose()).await?;
    let mut tx = pool.begin().await?;
    verifications::spend(&mut tx, &token, &subject, contact.purpose()).await?;
    contact
        .apply(&mut tx, user_id)
        .await
        .map_err(|e| renamed(sign_up::unique_violation(e), column, field))?;
    history::record(&mut tx, user_id, contact.action(), seen).await?;
    tx.commit().await?;
    Ok(Change::Changed)
}
