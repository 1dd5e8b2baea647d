//! Per-user storage usage: every account has a row from sign-up on.

use async_trait::async_trait;
use evidentia_common::consumer::{EventMeta, Handler};
use evidentia_proto::events::v1::AccountCreated;
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct Usage {
    pub used_bytes: i64,
    pub file_count: i64,
    pub folder_count: i64,
}

pub async fn open_account(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO storage_usage (user_id) VALUES ($1) ON CONFLICT DO NOTHING")
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// A user without a row yet (the event not processed) has used nothing.
pub async fn usage(conn: &mut PgConnection, user_id: Uuid) -> sqlx::Result<Usage> {
    let found = sqlx::query_as(
        "SELECT used_bytes, file_count, folder_count FROM storage_usage WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    Ok(found.unwrap_or_default())
}

/// `AccountCreated` opens the user's storage account.
pub struct OpenOnSignUp;

#[async_trait]
impl Handler<AccountCreated> for OpenOnSignUp {
    async fn handle(
        &self,
        conn: &mut PgConnection,
        event: AccountCreated,
        _meta: &EventMeta,
    ) -> anyhow::Result<()> {
        open_account(conn, Uuid::parse_str(&event.user_id)?).await?;
        Ok(())
    }
}
