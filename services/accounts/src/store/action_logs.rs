//! `action_logs`: the account's history, newest first.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug)]
pub struct Entry {
    pub id: Uuid,
    pub action: String,
    pub description: String,
    pub ip_address: String,
    pub user_agent: String,
    pub created_at: DateTime<Utc>,
}

/// Which of a user's entries a page is taken from; `None` matches anything.
#[derive(Debug, Clone, Copy)]
pub struct Filter<'a> {
    pub user_id: Uuid,
    pub action: Option<&'a str>,
    pub since: Option<DateTime<Utc>>,
    pub before: Option<DateTime<Utc>>,
}

#[tracing::instrument(skip_all, fields(user.id = %user_id, action = %action))]
pub async fn insert(
    conn: &mut PgConnection,
    user_id: Uuid,
    action: &str,
    description: &str,
    ip_address: &str,
    user_agent: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO action_logs (id, user_id, action, description, ip_address, user_agent)
         VALUES ($1, $2, $3, $4, $5, $6)",
        Uuid::now_v7(),
        user_id,
        action,
        description,
        ip_address,
        user_agent
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[tracing::instrument(skip_all, fields(user.id = %filter.user_id))]
pub async fn count(conn: &mut PgConnection, filter: Filter<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT count(*) AS "count!" FROM action_logs
           WHERE user_id = $1 AND ($2::text IS NULL OR action = $2)
             AND ($3::timestamptz IS NULL OR created_at >= $3)
             AND ($4::timestamptz IS NULL OR created_at < $4)"#,
        filter.user_id,
        filter.action,
        filter.since,
        filter.before
    )
    .fetch_one(conn)
    .await
}

#[tracing::instrument(skip_all, fields(user.id = %filter.user_id))]
pub async fn page(
    conn: &mut PgConnection,
    filter: Filter<'_>,
    limit: i64,
    offset: i64,
) -> sqlx::Result<Vec<Entry>> {
    sqlx::query_as!(
        Entry,
        "SELECT id, action, description, ip_address, user_agent, created_at FROM action_logs
         WHERE user_id = $1 AND ($2::text IS NULL OR action = $2)
           AND ($3::timestamptz IS NULL OR created_at >= $3)
           AND ($4::timestamptz IS NULL OR created_at < $4)
         ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6",
        filter.user_id,
        filter.action,
        filter.since,
        filter.before,
        limit,
        offset
    )
    .fetch_all(conn)
    .await
}
