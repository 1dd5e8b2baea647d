//! The custody log: every item's story as an append-only chain. Each entry's hash covers the
//! item, its place in the chain, what happened, when, and the hash before it, so changing or
//! removing any entry breaks every hash from there on and the check names the first.
//!
//! A log's head (its last entry's sequence number and hash) is signed at least daily, and when a
//! packet is made: whoever holds an older signed head can tell if the history before it was
//! rewritten since.

use std::{collections::BTreeMap, time::Duration};

use chrono::{DateTime, SecondsFormat, Utc};
use evidentia_common::signing::SigningKeys;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    error::SharingError,
    outbound::ItemFacts,
    store::custody::{self, EntryRow, HeadRow},
};

/// The first entry's `prev_hash`.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What happened to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Captured,
    Uploaded,
    Verified,
    Shared,
    CopyGenerated,
    CodeSent,
    CodeChecked,
    Viewed,
    Downloaded,
    Revoked,
    ChatMessage,
    Scheduled,
    Released,
    PacketExported,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Captured => "captured",
            Self::Uploaded => "uploaded",
            Self::Verified => "verified",
            Self::Shared => "shared",
            Self::CopyGenerated => "copy_generated",
            Self::CodeSent => "code_sent",
            Self::CodeChecked => "code_checked",
            Self::Viewed => "viewed",
            Self::Downloaded => "downloaded",
            Self::Revoked => "revoked",
            Self::ChatMessage => "chat_message",
            Self::Scheduled => "scheduled",
            Self::Released => "released",
            Self::PacketExported => "packet_exported",
        }
    }
}

/// Whose an entry is: the owner's alone (nobody else is named), a share's (every recipient of the
/// share may read it), or one recipient's (their delivery). A recipient's evidence packet shows
/// only the chain links of the entries that are not theirs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Whose {
    pub share: Option<Uuid>,
    pub delivery: Option<Uuid>,
}

impl Whose {
    pub const OWNER: Self = Self {
        share: None,
        delivery: None,
    };

    pub fn share(share: Uuid) -> Self {
        Self {
            share: Some(share),
            delivery: None,
        }
    }

    pub fn delivery(share: Uuid, delivery: Uuid) -> Self {
        Self {
            share: Some(share),
            delivery: Some(delivery),
        }
    }
}

/// Whether the recipient of `delivery` (of `share`) reads `entry` in full. Entries written before
/// entries said whose they were count as naming a recipient unless their kind names nobody.
pub fn readable_by(entry: &EntryRow, share: Uuid, delivery: Uuid) -> bool {
    match (entry.share_id, entry.delivery_id) {
        (_, Some(of)) => of == delivery,
        (Some(of), None) => of == share,
        (None, None) => matches!(
            entry.kind.as_str(),
            "captured" | "uploaded" | "verified" | "packet_exported"
        ),
    }
}

pub fn entry_hash(
    item_id: Uuid,
    seq: i64,
    kind: &str,
    at: DateTime<Utc>,
    detail: &str,
    prev_hash: &str,
) -> String {
    let mut hasher = Sha256::new();
    for part in [
        item_id.to_string().as_str(),
        &seq.to_string(),
        kind,
        &at.to_rfc3339_opts(SecondsFormat::Micros, true),
        detail,
        prev_hash,
    ] {
        // Length-prefixed, so no two different entries hash the same bytes.
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    hex::encode(hasher.finalize())
}

/// Appends one entry after the item's last (in the caller's transaction). Times are kept to
/// the microsecond, as PostgreSQL stores them, so the hash is checked against what is read back.
pub async fn append(
    conn: &mut PgConnection,
    owner: Uuid,
    item_id: Uuid,
    whose: Whose,
    kind: Kind,
    at: DateTime<Utc>,
    detail: &str,
) -> Result<(), SharingError> {
    let at = truncate_micros(at);
    let (seq, prev_hash) = match custody::lock_last(conn, item_id).await? {
        Some((seq, hash)) => (seq + 1, hash),
        None => (1, GENESIS.to_owned()),
    };
    let hash = entry_hash(item_id, seq, kind.as_str(), at, detail, &prev_hash);
    custody::insert(
        conn,
        owner,
        &EntryRow {
            item_id,
            seq,
            kind: kind.as_str().to_owned(),
            at,
            detail: detail.to_owned(),
            prev_hash,
            hash,
            share_id: whose.share,
            delivery_id: whose.delivery,
        },
    )
    .await?;
    Ok(())
}

fn truncate_micros(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(at.timestamp_micros()).unwrap_or(at)
}

/// Starts an item's chain from what evidence recorded (capture on the device, receipt and
/// verification on the server), the first time the item is shared.
pub async fn seed(
    conn: &mut PgConnection,
    owner: Uuid,
    item: &ItemFacts,
) -> Result<(), SharingError> {
    if custody::has_entries(conn, item.id).await? {
        return Ok(());
    }
    append(
        conn,
        owner,
        item.id,
        Whose::OWNER,
        Kind::Captured,
        item.captured_at,
        "device time",
    )
    .await?;
    if let Some(at) = item.received_at {
        append(
            conn,
            owner,
            item.id,
            Whose::OWNER,
            Kind::Uploaded,
            at,
            "received by the server",
        )
        .await?;
    }
    if let Some(at) = item.verified_at {
        append(
            conn,
            owner,
            item.id,
            Whose::OWNER,
            Kind::Verified,
            at,
            &format!("SHA-256 {}", item.sha256),
        )
        .await?;
    }
    Ok(())
}

/// Walks one item's entries (in order) and returns the first that does not hold: a wrong
/// sequence number, a `prev_hash` that is not the hash before it, or a hash that does not match
/// its contents.
pub fn first_broken(entries: &[EntryRow]) -> Option<&EntryRow> {
    let mut expected_prev = GENESIS.to_owned();
    for (index, entry) in entries.iter().enumerate() {
        let seq_ok = entry.seq == i64::try_from(index).unwrap_or(i64::MAX) + 1;
        let recomputed = entry_hash(
            entry.item_id,
            entry.seq,
            &entry.kind,
            entry.at,
            &entry.detail,
            &entry.prev_hash,
        );
        if !seq_ok || entry.prev_hash != expected_prev || recomputed != entry.hash {
            return Some(entry);
        }
        expected_prev.clone_from(&entry.hash);
    }
    None
}

/// The version of the signed head's format, signed with it.
pub const HEAD_VERSION: i64 = 1;

/// The canonical bytes of a signed head: JSON with sorted keys, no white space, strings and
/// integers only (as receipts).
pub fn head_payload(
    item_id: Uuid,
    seq: i64,
    hash: &str,
    signed_at: DateTime<Utc>,
    key_id: &str,
) -> String {
    let fields: BTreeMap<&str, Value> = BTreeMap::from([
        ("hash", Value::from(hash)),
        ("item_id", Value::from(item_id.to_string())),
        ("key_id", Value::from(key_id)),
        ("seq", Value::from(seq)),
        (
            "signed_at",
            Value::from(signed_at.to_rfc3339_opts(SecondsFormat::Micros, true)),
        ),
        ("type", Value::from("custody_head")),
        ("version", Value::from(HEAD_VERSION)),
    ]);
    serde_json::to_string(&fields).unwrap_or_else(|_| unreachable!("strings and integers"))
}

/// Signs the head of every log that grew since its last signed head (only `items`, when given),
/// in batches; answers how many were signed.
pub async fn sign_heads(
    pool: &PgPool,
    keys: &SigningKeys,
    items: Option<&[Uuid]>,
    now: DateTime<Utc>,
) -> Result<usize, SharingError> {
    const BATCH: i64 = 500;
    let key_id = keys.current_id();
    let signed_at = truncate_micros(now);
    let mut signed = 0;
    loop {
        let mut tx = pool.begin().await?;
        let heads = custody::unsigned_heads(&mut tx, items, BATCH).await?;
        for head in &heads {
            let payload = head_payload(head.item_id, head.seq, &head.hash, signed_at, &key_id);
            let row = HeadRow {
                item_id: head.item_id,
                seq: head.seq,
                hash: head.hash.clone(),
                signed_at,
                signature: keys.sign(payload.as_bytes()),
                payload,
            };
            custody::insert_head(&mut tx, head.owner_id, &row).await?;
        }
        tx.commit().await?;
        signed += heads.len();
        if i64::try_from(heads.len()).unwrap_or(i64::MAX) < BATCH {
            return Ok(signed);
        }
    }
}

/// The head signer, in every sharing replica: two replicas signing the same head keep the first.
pub async fn run_head_signer(
    pool: PgPool,
    keys: SigningKeys,
    every: Duration,
    shutdown: CancellationToken,
) {
    loop {
        match sign_heads(&pool, &keys, None, Utc::now()).await {
            Ok(0) => {}
            Ok(signed) => tracing::info!(signed, "signed custody-log heads"),
            Err(err) => {
                tracing::error!(error = ?err, "signing custody-log heads failed; it tries again")
            }
        }
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(every.max(Duration::from_secs(1))) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: i64) -> Vec<EntryRow> {
        let item = Uuid::now_v7();
        let mut prev = GENESIS.to_owned();
        (1..=n)
            .map(|seq| {
                let at = DateTime::from_timestamp(1_800_000_000 + seq, 0).unwrap_or_default();
                let hash = entry_hash(item, seq, "viewed", at, "x", &prev);
                let entry = EntryRow {
                    item_id: item,
                    seq,
                    kind: "viewed".to_owned(),
                    at,
                    detail: "x".to_owned(),
                    prev_hash: prev.clone(),
                    hash: hash.clone(),
                    share_id: None,
                    delivery_id: None,
                };
                prev = hash;
                entry
            })
            .collect()
    }

    #[test]
    fn a_head_payload_is_sorted_compact_json_that_verifies() {
        let keys = SigningKeys::generate();
        let at = DateTime::from_timestamp(1_800_000_000, 123_456_000).unwrap_or_default();
        let payload = head_payload(Uuid::nil(), 7, &"ab".repeat(32), at, &keys.current_id());
        assert_eq!(
            payload,
            format!(
                r#"{{"hash":"{}","item_id":"00000000-0000-0000-0000-000000000000","key_id":"{}","seq":7,"signed_at":"2027-01-15T08:00:00.123456Z","type":"custody_head","version":1}}"#,
                "ab".repeat(32),
                keys.current_id()
            )
        );
        let signature = keys.sign(payload.as_bytes());
        let public = &keys.public_keys()[0];
        assert!(evidentia_common::signing::verify(
            payload.as_bytes(),
            &signature,
            public
        ));
    }

    #[test]
    fn an_intact_chain_has_no_broken_entry() {
        assert_eq!(first_broken(&chain(5)), None);
        assert_eq!(first_broken(&[]), None);
    }

    #[test]
    fn a_changed_detail_is_named() {
        let mut entries = chain(5);
        entries[2].detail = "changed".to_owned();
        assert_eq!(first_broken(&entries).map(|e| e.seq), Some(3));
    }

    #[test]
    fn a_removed_entry_breaks_the_next() {
        let mut entries = chain(5);
        entries.remove(1);
        assert_eq!(first_broken(&entries).map(|e| e.seq), Some(3));
    }

    #[test]
    fn a_rehashed_entry_still_breaks_its_successor() {
        let mut entries = chain(4);
        entries[1].detail = "changed".to_owned();
        entries[1].hash = entry_hash(
            entries[1].item_id,
            2,
            "viewed",
            entries[1].at,
            "changed",
            &entries[1].prev_hash,
        );
        assert_eq!(first_broken(&entries).map(|e| e.seq), Some(3));
    }
}
