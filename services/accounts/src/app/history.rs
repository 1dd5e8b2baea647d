//! The account's history: recording what happened, and reading it back a page at a time.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    app::sessions,
    domain::{Action, Seen, history::Query},
    error::AccountsError,
    store::action_logs::{self, Entry, Filter},
};

/// Records `action` for `user_id`, in the caller's transaction when there is one, so a change and
/// its record land together.
pub async fn record(
    conn: &mut PgConnection,
    user_id: Uuid,
    action: Action,
    seen: &Seen,
) -> Result<(), AccountsError> {
    action_logs::insert(
        conn,
        user_id,
        action.as_str(),
        action.description(),
        truncate(&seen.ip, 64),
        truncate(&seen.user_agent, 512),
    )
    .await?;
    Ok(())
}

fn truncate(value: &str, max: usize) -> &str {
    match value.char_indices().nth(max) {
        Some((at, _)) => &value[..at],
        None => value,
    }
}

/// One page of the user's history, newest first, and how many entries match in all.
#[tracing::instrument(skip_all)]
pub async fn list(
    conn: &mut PgConnection,
    user_id: Uuid,
    query: &Query,
) -> Result<(i64, Vec<Entry>), AccountsError> {
    sessions::require_active(conn, user_id).await?;
    let filter = Filter {
        user_id,
        action: query.action.map(Action::as_str),
        since: query.since(),
        before: query.before(),
    };
    let count = action_logs::count(conn, filter).await?;
    let limit = i64::from(query.page_size);
    let entries = action_logs::page(conn, filter, limit, query.offset()).await?;
    Ok((count, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_counts_characters_not_bytes() {
        assert_eq!(truncate("ąbc", 2), "ąb");
        assert_eq!(truncate("ab", 5), "ab");
    }
}
