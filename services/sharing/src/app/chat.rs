//! The conversation of a share: one thread between its owner and its recipients. The owner
//! speaks signed in, a recipient with the access token their code gave them (never a public
//! link, which names nobody). Messages are numbered per thread in the inserting transaction;
//! a retried send with the same client id finds the message it made; every message is an entry
//! in the custody log of the shared items. A revoked share's thread is read-only (and its
//! recipients' tokens have ended with it, so only the owner still reads it).

use chrono::{DateTime, Utc};
use evidentia_common::{
    ratelimit::{self, Verdict},
    text::{REFUSED_CHARACTERS, has_refused},
};
use redis::aio::ConnectionManager;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    app::{
        access::{Pass, authorize},
        custody::{self, Kind, Whose},
        links::Links,
    },
    directory,
    domain::{Recipient, hash_secret},
    error::SharingError,
    state::Settings,
    store::{chat, deliveries, shares},
};

/// The longest message, in characters.
pub const MAX_CONTENT: usize = 2000;
/// The most messages one read returns; the client asks again after the last.
pub const PAGE: i64 = 200;
/// The most conversations the list returns.
pub const LIST_LIMIT: i64 = 100;
/// The owner's key among a thread's participants (a recipient's is their delivery id).
pub const OWNER: &str = "owner";

/// Who is speaking or reading, and the share they reach.
#[derive(Debug, Clone)]
pub struct Participant {
    /// `owner`, or the recipient's delivery id.
    pub key: String,
    /// How their messages are signed: the owner's name, a recipient's masked address.
    pub name: String,
    pub share_id: Uuid,
    pub owner_id: Uuid,
    pub folder_name: String,
    pub revoked: bool,
    /// The recipients' keys of the share (every participant but the owner).
    pub recipients: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub id: Uuid,
    pub seq: i64,
    pub author_name: String,
    pub from_owner: bool,
    /// Written by whoever asked.
    pub mine: bool,
    pub client_message_id: String,
    pub content: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct Chat {
    pub share_id: Uuid,
    pub folder_name: String,
    pub read_only: bool,
    /// The thread's last number: ask again after it.
    pub last_seq: i64,
    pub messages: Vec<Message>,
}

/// A message as it stands on the wire: content checked, the client's id checked.
#[derive(Debug, Clone)]
pub struct Draft {
    pub client_message_id: String,
    pub content: String,
}

impl Draft {
    pub fn parse(client_message_id: &str, content: &str) -> Result<Self, SharingError> {
        let mut errors = Vec::new();
        let id_ok = !client_message_id.is_empty()
            && client_message_id.len() <= 64
            && client_message_id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !id_ok {
            errors.push(evidentia_common::errors::FieldError::new(
                "client_message_id",
                "Give each message an id of 1 to 64 letters, digits, '-' or '_'.",
            ));
        }
        if is_blank(content) {
            errors.push(evidentia_common::errors::FieldError::new(
                "content",
                "Write a message.",
            ));
        } else if content.chars().count() > MAX_CONTENT {
            errors.push(evidentia_common::errors::FieldError::new(
                "content",
                "Maximum 2000 characters",
            ));
        } else if has_refused(content) {
            errors.push(evidentia_common::errors::FieldError::new(
                "content",
                REFUSED_CHARACTERS,
            ));
        }
        if errors.is_empty() {
            Ok(Self {
                client_message_id: client_message_id.to_owned(),
                content: content.to_owned(),
            })
        } else {
            Err(SharingError::Invalid(errors))
        }
    }
}

/// True when nothing of `content` would show: whitespace and the invisible characters that
/// `trim` leaves (zero-width spaces and joiners, the word joiner, the byte-order mark, the
/// Hangul fillers, the soft hyphen).
fn is_blank(content: &str) -> bool {
    content.chars().all(|c| {
        c.is_whitespace()
            || matches!(
                c,
                '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{180E}' | '\u{200B}'
                    ..='\u{200D}' | '\u{2060}' | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
            )
    })
}

fn message(row: chat::MessageRow, reader: &str) -> Message {
    Message {
        id: row.id,
        seq: row.seq,
        from_owner: row.author == OWNER,
        mine: row.author == reader,
        author_name: row.author_name,
        client_message_id: row.client_message_id,
        content: row.content,
        created_at: row.created_at,
    }
}

async fn recipients_of(conn: &mut PgConnection, share_id: Uuid) -> sqlx::Result<Vec<String>> {
    Ok(deliveries::for_share(conn, share_id)
        .await?
        .into_iter()
        .filter(|d| d.channel != "link")
        .map(|d| d.id.to_string())
        .collect())
}

/// The owner, in their own share (anyone else's, or an unpaid one, is not found).
pub async fn as_owner(
    pool: &PgPool,
    owner: Uuid,
    share_id: Uuid,
) -> Result<Participant, SharingError> {
    let mut conn = pool.acquire().await?;
    let share = shares::get_owned(&mut conn, owner, share_id)
        .await?
        .ok_or(SharingError::NotFound)?;
    let name = directory::find(&mut conn, owner)
        .await?
        .map_or_else(|| "Owner".to_owned(), |entry| entry.display_name());
    Ok(Participant {
        key: OWNER.to_owned(),
        name,
        share_id,
        owner_id: owner,
        folder_name: share.folder_name,
        revoked: share.state == "revoked",
        recipients: recipients_of(&mut conn, share_id).await?,
    })
}

/// The recipient whose access token this is, in the share it opens (another share's id is not
/// found).
pub async fn as_recipient(
    pool: &PgPool,
    links: &Links,
    token: &str,
    share_id: Uuid,
) -> Result<Participant, SharingError> {
    if token.is_empty() {
        return Err(SharingError::AccessEnded);
    }
    let opened = authorize(pool, links, &Pass::Token(token)).await?;
    let d = &opened.delivery;
    if d.share_id != share_id || d.channel == "link" {
        return Err(SharingError::NotFound);
    }
    let mut conn = pool.acquire().await?;
    Ok(Participant {
        key: d.id.to_string(),
        name: Recipient::masked(&d.channel, &d.address, &d.sent_to),
        share_id,
        owner_id: opened.owner_id,
        folder_name: opened.folder_name.clone(),
        revoked: opened.share_state == "revoked",
        recipients: recipients_of(&mut conn, share_id).await?,
    })
}

/// What came after number `after`, marking it read for the reader.
#[tracing::instrument(skip_all, fields(share.id = %who.share_id))]
pub async fn read(pool: &PgPool, who: &Participant, after: i64) -> Result<Chat, SharingError> {
    let mut conn = pool.acquire().await?;
    let rows = chat::after(&mut conn, who.share_id, after.max(0), PAGE).await?;
    let last_seq = chat::last_seq(&mut conn, who.share_id).await?;
    let read_to = rows.last().map_or(after.min(last_seq), |m| m.seq);
    chat::mark_read(&mut conn, who.share_id, &who.key, read_to.max(0)).await?;
    Ok(Chat {
        share_id: who.share_id,
        folder_name: who.folder_name.clone(),
        read_only: who.revoked,
        last_seq,
        messages: rows.into_iter().map(|row| message(row, &who.key)).collect(),
    })
}

pub struct PostDeps<'a> {
    pub pool: &'a PgPool,
    pub redis: &'a ConnectionManager,
    pub settings: &'a Settings,
}

/// Adds a message to the thread (or finds the one a retried send made).
#[tracing::instrument(skip_all, fields(share.id = %who.share_id))]
pub async fn post(
    deps: &PostDeps<'_>,
    who: &Participant,
    token: Option<&str>,
    draft: Draft,
) -> Result<Message, SharingError> {
    if who.revoked {
        return Err(SharingError::ChatClosed);
    }
    // A retried send finds its message before anything counts against the limit.
    let mut conn = deps.pool.acquire().await?;
    if let Some(sent) =
        chat::find_sent(&mut conn, who.share_id, &who.key, &draft.client_message_id).await?
    {
        return Ok(message(sent, &who.key));
    }
    drop(conn);
    if let Some(token) = token {
        let key = format!("sharing:chat:token:{}", hex::encode(hash_secret(token)));
        if let Verdict::Refused { retry_after_secs } =
            ratelimit::hit(deps.redis, &key, deps.settings.chat_messages_per_token, 60).await?
        {
            return Err(SharingError::RateLimited {
                message: "Too many messages were sent. Try again in a minute.",
                retry_after_secs,
            });
        }
    }
    let mut participants = who.recipients.clone();
    participants.push(OWNER.to_owned());
    let mut tx = deps.pool.begin().await?;
    let last_seq = chat::lock_thread(&mut tx, who.share_id, &participants).await?;
    if let Some(sent) =
        chat::find_sent(&mut tx, who.share_id, &who.key, &draft.client_message_id).await?
    {
        tx.rollback().await?;
        return Ok(message(sent, &who.key));
    }
    let seq = last_seq + 1;
    let at = Utc::now();
    let id = Uuid::now_v7();
    chat::insert(
        &mut tx,
        &chat::NewMessage {
            id,
            share_id: who.share_id,
            seq,
            author: &who.key,
            author_name: &who.name,
            client_message_id: &draft.client_message_id,
            content: &draft.content,
            at,
        },
    )
    .await?;
    // The custody log keeps that a message was written, by whom, and a digest of what it said.
    let detail = format!(
        "message {seq} from {}, SHA-256 {}",
        who.name,
        hex::encode(Sha256::digest(draft.content.as_bytes()))
    );
    for item in shares::items(&mut tx, who.share_id).await? {
        custody::append(
            &mut tx,
            who.owner_id,
            item.item_id,
            // A share's conversation is read by all of its recipients.
            Whose::share(who.share_id),
            Kind::ChatMessage,
            at,
            &detail,
        )
        .await?;
    }
    // Writing is not reading: what others wrote meanwhile stays unread until it is fetched.
    tx.commit().await?;
    Ok(Message {
        id,
        seq,
        author_name: who.name.clone(),
        from_owner: who.key == OWNER,
        mine: true,
        client_message_id: draft.client_message_id,
        content: draft.content,
        created_at: at,
    })
}

/// Takes the thread off the owner's list of conversations until a newer message arrives. The
/// recipients' side is unchanged: they still read it and can still write.
#[tracing::instrument(skip_all, fields(share.id = %who.share_id))]
pub async fn archive(pool: &PgPool, who: &Participant, confirm: bool) -> Result<(), SharingError> {
    if !confirm {
        return Err(SharingError::invalid(
            "confirm",
            "Confirm that this conversation should be archived.",
        ));
    }
    let mut tx = pool.begin().await?;
    let mut participants = who.recipients.clone();
    participants.push(OWNER.to_owned());
    let last_seq = chat::lock_thread(&mut tx, who.share_id, &participants).await?;
    chat::archive(&mut tx, who.share_id, &who.key, last_seq).await?;
    tx.commit().await?;
    Ok(())
}

/// The owner's conversations, newest first, with what they have not read.
pub async fn list(pool: &PgPool, owner: Uuid) -> Result<Vec<chat::ThreadSummary>, SharingError> {
    let mut conn = pool.acquire().await?;
    Ok(chat::owner_threads(&mut conn, owner, LIST_LIMIT).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_needs_words_and_an_id() {
        assert!(Draft::parse("m-1", "Hello").is_ok());
        assert!(Draft::parse("m-1", &"x".repeat(MAX_CONTENT)).is_ok());
        for (id, content) in [
            ("m-1", ""),
            ("m-1", "  \n "),
            ("m-1", "\u{200B}\u{200B}"),
            ("m-1", "\u{FEFF}"),
            ("m-1", "\u{3164}"),
            ("m-1", &"x".repeat(MAX_CONTENT + 1)),
            ("", "Hello"),
            ("m 1", "Hello"),
            (&"a".repeat(65), "Hello"),
            ("m-1", "bad\u{0}byte"),
            ("m-1", "flip\u{202E}txt"),
        ] {
            assert!(
                matches!(Draft::parse(id, content), Err(SharingError::Invalid(_))),
                "{id:?} {content:?}"
            );
        }
        // Two thousand characters, not bytes.
        assert!(Draft::parse("m-1", &"é".repeat(MAX_CONTENT)).is_ok());
    }
}
