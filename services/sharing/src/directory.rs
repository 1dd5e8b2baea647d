//! Sharing's directory of accounts: how each user is named on shared copies, kept from
//! `AccountCreated`; a deleted account is marked (its shares are paused) until it is recovered,
//! and forgotten when it is purged.

use evidentia_common::handler;
use evidentia_proto::events::v1::{
    AccountCreated, AccountDeleted, AccountPurged, AccountRecovered,
};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub username: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
}

impl Entry {
    /// "First Last" when the user gave a name, else the username.
    pub fn display_name(&self) -> String {
        let full = format!("{} {}", self.first_name.trim(), self.last_name.trim());
        let full = full.trim();
        if full.is_empty() {
            self.username.clone()
        } else {
            full.to_owned()
        }
    }
}

pub async fn find(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Option<Entry>> {
    sqlx::query_as!(
        Entry,
        "SELECT username, email, first_name, last_name FROM account_directory
         WHERE user_id = $1 AND deleted_at IS NULL",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// `AccountCreated` adds the account to the directory.
pub struct RecordOnSignUp;

handler!(RecordOnSignUp, AccountCreated, |conn, event| {
    sqlx::query!(
        "INSERT INTO account_directory (user_id, username, email, first_name, last_name)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING",
        Uuid::parse_str(&event.user_id)?,
        event.username,
        event.email,
        event.first_name,
        event.last_name
    )
    .execute(conn)
    .await?;
    Ok(())
});

/// `AccountDeleted` pauses the account's shares; `AccountRecovered` resumes them; `AccountPurged`
/// forgets the account.
pub struct FollowDeletion;

async fn mark(conn: &mut PgConnection, user_id: &str, deleted: bool) -> anyhow::Result<()> {
    sqlx::query!(
        "UPDATE account_directory SET deleted_at = CASE WHEN $2 THEN now() ELSE NULL END
         WHERE user_id = $1",
        Uuid::parse_str(user_id)?,
        deleted
    )
    .execute(conn)
    .await?;
    Ok(())
}

handler!(FollowDeletion, AccountDeleted, |conn, event| {
    mark(conn, &event.user_id, true).await
});

handler!(FollowDeletion, AccountRecovered, |conn, event| {
    mark(conn, &event.user_id, false).await
});

handler!(FollowDeletion, AccountPurged, |conn, event| {
    sqlx::query!(
        "DELETE FROM account_directory WHERE user_id = $1",
        Uuid::parse_str(&event.user_id)?
    )
    .execute(conn)
    .await?;
    Ok(())
});
