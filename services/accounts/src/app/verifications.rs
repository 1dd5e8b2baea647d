//! What a verified code or password gives: a token for the call it unlocks (a sign-up, a reset,
//! a change), or a password token that unlocks sensitive changes for a while.

use chrono::{Duration, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{Purpose, hash, random_token},
    error::AccountsError,
    store::verifications,
};

/// Records a verification of `subject` for `purpose` and returns its token.
pub async fn issue(
    conn: &mut PgConnection,
    subject: &str,
    purpose: Purpose,
    ttl_seconds: i64,
) -> Result<String, AccountsError> {
    let token = random_token();
    let expires_at = Utc::now() + Duration::seconds(ttl_seconds);
    verifications::insert(conn, &hash(&token), subject, purpose.as_str(), expires_at).await?;
    Ok(token)
}

/// Spends a verification token for `subject` inside the caller's transaction.
pub async fn spend(
    conn: &mut PgConnection,
    token: &str,
    subject: &str,
    purpose: Purpose,
) -> Result<(), AccountsError> {
    if verifications::spend(conn, &hash(token), subject, purpose.as_str()).await? {
        return Ok(());
    }
    Err(match purpose {
        Purpose::Password => AccountsError::PasswordTokenInvalid,
        Purpose::PasswordReset => AccountsError::RecoveryInvalid,
        Purpose::SignUp | Purpose::EmailChange | Purpose::PhoneChange => {
            AccountsError::VerificationInvalid
        }
    })
}

/// Checks, without spending, that a password token of `user_id` is still valid: it unlocks every
/// sensitive change for its lifetime.
pub async fn check_password_token(
    conn: &mut PgConnection,
    token: &str,
    user_id: Uuid,
) -> Result<(), AccountsError> {
    if verifications::password_token_valid(conn, &hash(token), &user_id.to_string()).await? {
        Ok(())
    } else {
        Err(AccountsError::PasswordTokenInvalid)
    }
}
