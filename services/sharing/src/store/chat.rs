//! `chat_threads`, `chat_messages` and `chat_participants`: one conversation per share.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageRow {
    pub id: Uuid,
    pub seq: i64,
    pub author: String,
    pub author_name: String,
    pub client_message_id: String,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

/// Creates the share's thread if it has none, with a place for each participant, and locks it:
/// the messages of one thread are numbered one transaction at a time.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn lock_thread(
    conn: &mut PgConnection,
    share_id: Uuid,
    participants: &[String],
) -> sqlx::Result<i64> {
    sqlx::query!(
        "INSERT INTO chat_threads (share_id) VALUES ($1) ON CONFLICT DO NOTHING",
        share_id
    )
    .execute(&mut *conn)
    .await?;
    let last_seq = sqlx::query_scalar!(
        "SELECT last_seq FROM chat_threads WHERE share_id = $1 FOR UPDATE",
        share_id
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO chat_participants (share_id, participant)
         SELECT $1, p FROM unnest($2::text[]) AS p
         ON CONFLICT DO NOTHING",
        share_id,
        participants
    )
    .execute(conn)
    .await?;
    Ok(last_seq)
}

/// The message this author already sent with this client id (a retried send).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn find_sent(
    conn: &mut PgConnection,
    share_id: Uuid,
    author: &str,
    client_message_id: &str,
) -> sqlx::Result<Option<MessageRow>> {
    sqlx::query_as!(
        MessageRow,
        "SELECT id, seq, author, author_name, client_message_id, content, created_at
         FROM chat_messages WHERE share_id = $1 AND author = $2 AND client_message_id = $3",
        share_id,
        author,
        client_message_id
    )
    .fetch_optional(conn)
    .await
}

pub struct NewMessage<'a> {
    pub id: Uuid,
    pub share_id: Uuid,
    pub seq: i64,
    pub author: &'a str,
    pub author_name: &'a str,
    pub client_message_id: &'a str,
    pub content: &'a str,
    pub at: DateTime<Utc>,
}

/// Adds the message under the thread lock [`lock_thread`] took, as number `seq`.
#[tracing::instrument(skip_all, fields(share.id = %m.share_id, chat.seq = m.seq))]
pub async fn insert(conn: &mut PgConnection, m: &NewMessage<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE chat_threads SET last_seq = $2, last_message_at = $3 WHERE share_id = $1",
        m.share_id,
        m.seq,
        m.at
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO chat_messages
             (share_id, seq, id, author, author_name, client_message_id, content, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        m.share_id,
        m.seq,
        m.id,
        m.author,
        m.author_name,
        m.client_message_id,
        m.content,
        m.at
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Up to `limit` messages after number `after`, oldest first.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn after(
    conn: &mut PgConnection,
    share_id: Uuid,
    after: i64,
    limit: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as!(
        MessageRow,
        "SELECT id, seq, author, author_name, client_message_id, content, created_at
         FROM chat_messages WHERE share_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        share_id,
        after,
        limit
    )
    .fetch_all(conn)
    .await
}

/// The thread's last number (0 without a thread).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn last_seq(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<i64> {
    Ok(sqlx::query_scalar!(
        "SELECT last_seq FROM chat_threads WHERE share_id = $1",
        share_id
    )
    .fetch_optional(conn)
    .await?
    .unwrap_or(0))
}

/// The participant has looked at the thread and read it up to `seq` (never backwards).
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn mark_read(
    conn: &mut PgConnection,
    share_id: Uuid,
    participant: &str,
    seq: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO chat_participants (share_id, participant, last_read_seq, last_seen_at)
         SELECT $1, $2, $3, now() WHERE EXISTS (SELECT 1 FROM chat_threads WHERE share_id = $1)
         ON CONFLICT (share_id, participant) DO UPDATE
         SET last_read_seq = GREATEST(chat_participants.last_read_seq, EXCLUDED.last_read_seq),
             last_seen_at = now()",
        share_id,
        participant,
        seq
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Hides the thread from the participant's list until a message newer than `seq` arrives.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn archive(
    conn: &mut PgConnection,
    share_id: Uuid,
    participant: &str,
    seq: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE chat_participants SET archived_seq = $3, last_read_seq = GREATEST(last_read_seq, $3)
         WHERE share_id = $1 AND participant = $2",
        share_id,
        participant,
        seq
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct ThreadSummary {
    pub share_id: Uuid,
    pub folder_id: Uuid,
    pub folder_name: String,
    pub share_state: String,
    pub last_seq: i64,
    pub last_message_at: Option<DateTime<Utc>>,
    pub last_author_name: Option<String>,
    pub last_content: Option<String>,
    pub unread: i64,
}

/// The owner's threads that hold a message and are not archived (or have news since), newest
/// first.
#[tracing::instrument(skip_all, fields(user.id = %owner))]
pub async fn owner_threads(
    conn: &mut PgConnection,
    owner: Uuid,
    limit: i64,
) -> sqlx::Result<Vec<ThreadSummary>> {
    sqlx::query_as!(
        ThreadSummary,
        r#"SELECT t.share_id, s.folder_id, s.folder_name, s.state AS share_state, t.last_seq,
                  t.last_message_at, m.author_name AS "last_author_name?", m.content AS "last_content?",
                  (SELECT count(*) FROM chat_messages u
                   WHERE u.share_id = t.share_id AND u.author <> 'owner'
                     AND u.seq > COALESCE(p.last_read_seq, 0)) AS "unread!"
           FROM chat_threads t
           JOIN shares s ON s.id = t.share_id
           LEFT JOIN chat_participants p ON p.share_id = t.share_id AND p.participant = 'owner'
           LEFT JOIN chat_messages m ON m.share_id = t.share_id AND m.seq = t.last_seq
           WHERE s.owner_id = $1 AND t.last_seq > 0
             AND (p.archived_seq IS NULL OR t.last_seq > p.archived_seq)
           ORDER BY t.last_message_at DESC, t.share_id
           LIMIT $2"#,
        owner,
        limit
    )
    .fetch_all(conn)
    .await
}

#[derive(Debug, Clone)]
pub struct Away {
    pub share_id: Uuid,
    pub participant: String,
    pub owner_id: Uuid,
    pub folder_name: String,
    pub unread: i64,
}

/// Participants with a message from someone else that has waited unread since before `before`,
/// and who have not been told since they last looked: each is claimed (marked told) in the
/// caller's transaction, so two replicas never both send the e-mail.
#[tracing::instrument(skip_all)]
pub async fn claim_away(
    conn: &mut PgConnection,
    before: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<Away>> {
    sqlx::query_as!(
        Away,
        r#"WITH due AS (
               SELECT p.share_id, p.participant FROM chat_participants p
               JOIN shares s ON s.id = p.share_id AND s.state = 'active'
               WHERE (p.notified_at IS NULL OR p.notified_at < p.last_seen_at)
                 AND EXISTS (SELECT 1 FROM chat_messages m
                             WHERE m.share_id = p.share_id AND m.seq > p.last_read_seq
                               AND m.author <> p.participant AND m.created_at <= $1)
               ORDER BY p.share_id, p.participant
               LIMIT $2
               FOR UPDATE OF p SKIP LOCKED
           )
           UPDATE chat_participants p SET notified_at = now()
           FROM due, shares s
           WHERE p.share_id = due.share_id AND p.participant = due.participant AND s.id = p.share_id
           RETURNING p.share_id, p.participant, s.owner_id, s.folder_name,
                     (SELECT count(*) FROM chat_messages m
                      WHERE m.share_id = p.share_id AND m.seq > p.last_read_seq
                        AND m.author <> p.participant) AS "unread!""#,
        before,
        limit
    )
    .fetch_all(conn)
    .await
}

/// Undoes a claim whose e-mail could not be sent, so it is tried again.
#[tracing::instrument(skip_all, fields(share.id = %share_id))]
pub async fn unclaim(
    conn: &mut PgConnection,
    share_id: Uuid,
    participant: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE chat_participants SET notified_at = NULL WHERE share_id = $1 AND participant = $2",
        share_id,
        participant
    )
    .execute(conn)
    .await?;
    Ok(())
}
