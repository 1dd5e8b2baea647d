//! The user's purchases and money movements, for the transaction-info screens.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    domain::{Movement, Transaction},
    error::PaymentsError,
    store::{movements, purchases},
};

/// How many purchases, and how many movements, the lists show, newest first.
pub const LIST_LIMIT: i64 = 200;

pub async fn get(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
) -> Result<Transaction, PaymentsError> {
    purchases::get(conn, user_id, id)
        .await?
        .ok_or(PaymentsError::NotFound)
}

pub async fn list(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<(Vec<Transaction>, Vec<Movement>), PaymentsError> {
    let bought = purchases::list(conn, user_id, LIST_LIMIT).await?;
    let moved = movements::list(conn, user_id, LIST_LIMIT).await?;
    Ok((bought, moved.into_iter().map(Movement::from).collect()))
}
