//! Per-user storage usage: every account has a row from sign-up on.

use evidentia_common::handler;
use evidentia_proto::events::v1::AccountCreated;
use sqlx::PgPool;
use uuid::Uuid;

use crate::{domain::Usage, error::EvidenceError, store::usage};

/// A user without a row yet (the event not processed) has used nothing.
pub async fn usage(pool: &PgPool, user_id: Uuid) -> Result<Usage, EvidenceError> {
    let found = usage::get(&mut *pool.acquire().await?, user_id).await?;
    Ok(found.unwrap_or_default())
}

/// `AccountCreated` opens the user's storage account.
pub struct OpenOnSignUp;

handler!(OpenOnSignUp, AccountCreated, |conn, event| {
    usage::open(conn, Uuid::parse_str(&event.user_id)?).await?;
    Ok(())
});
