//! The evidence packet: a ZIP anyone can check offline, without trusting our servers.
//!
//! ```text
//! VERIFY.md                      how to check it, for a lawyer
//! verify.sh                      the check, with sha256sum and openssl only
//! manifest.json, manifest.sig    every file's SHA-256, receipt and custody head; signed
//! keys/KEY_ID.pem                the public keys (also at /api/.well-known/receipt-keys)
//! files/NN-NAME                  the originals (a recipient's packet: the copies they received)
//! receipts/ITEM.json, .sig       each original's signed receipt, exactly as signed
//! receipts/ITEM.tsr              its RFC 3161 timestamp token, when an authority gave one
//! keys/tsa-ca.pem                that authority's certificate
//! custody/ITEM.jsonl             each original's custody log, one entry per line
//!                                (a recipient's packet: only the chain links of entries about
//!                                other recipients, marked "withheld")
//! heads/ITEM-SEQ.json, .sig      the log's signed heads
//! ```
//!
//! The manifest has one file per line so `verify.sh` reads it with `sed`; signatures are the raw
//! 64 bytes `openssl pkeyutl -verify -rawin -sigfile` reads.

pub mod zip;

use std::{collections::BTreeSet, io};

use base64::{Engine as _, engine::general_purpose::STANDARD};
use bytes::Bytes;
use chrono::{DateTime, SecondsFormat, Utc};
use evidentia_common::signing::{PublicKey, SigningKeys};
use futures::stream::BoxStream;
use serde_json::{Value, json};
use tokio::io::AsyncWrite;
use uuid::Uuid;

use self::zip::{MODE_EXECUTABLE, MODE_FILE, ZipStream};
use crate::{
    outbound::SignedReceipt,
    store::custody::{EntryRow, HeadRow},
};

pub const VERIFY_SH: &str = include_str!("verify.sh");
pub const VERIFY_MD: &str = include_str!("VERIFY.md");

/// The manifest format's version, signed with it.
pub const MANIFEST_VERSION: i64 = 1;

/// One file in the packet: an original, or in a recipient's packet the copy they received.
#[derive(Debug, Clone)]
pub struct PacketFile {
    pub item_id: Uuid,
    pub name: String,
    /// Of the file in the packet.
    pub sha256: String,
    pub size: i64,
    /// A copy's original, which the receipt is of (the log's `copy_generated` entry names the
    /// copy's SHA-256); `None` when the file is the original.
    pub original_sha256: Option<String>,
    pub receipt: Option<SignedReceipt>,
    /// The item's custody log, in order (never empty: the packet starts one).
    pub custody: Vec<EntryRow>,
    /// Entries (by sequence number) given only as links of the chain: about other recipients.
    pub withheld: BTreeSet<i64>,
    pub heads: Vec<HeadRow>,
}

/// Whose copies a recipient's packet holds.
#[derive(Debug, Clone)]
pub struct Recipient {
    pub sent_to: String,
    pub transaction_number: String,
}

/// What a packet holds, but the files' bytes.
#[derive(Debug, Clone)]
pub struct Contents {
    pub folder_name: String,
    pub generated_at: DateTime<Utc>,
    /// `None`: the owner's packet of originals.
    pub recipient: Option<Recipient>,
    pub files: Vec<PacketFile>,
    /// Every published key, so any receipt or head in the packet can be checked.
    pub keys: Vec<PublicKey>,
    /// The certificate receipts' timestamps are checked against, when an authority is
    /// configured.
    pub timestamp_authority_pem: Option<String>,
}

/// Where the time-stamping authority's certificate goes.
pub const TSA_CA_PATH: &str = "keys/tsa-ca.pem";

/// Where each original goes: numbered, so two files of the same name stay apart, and reduced to
/// characters every file system and `verify.sh` take.
pub fn file_path(index: usize, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    let safe: String = safe.chars().take(80).collect();
    format!(
        "files/{:02}-{}",
        index + 1,
        if safe.is_empty() { "file" } else { &safe }
    )
}

/// A custody entry as one JSON line, keys in the order `verify.sh` reads them. A withheld entry
/// keeps only what links it into the chain: its hash can be followed, not recomputed.
pub fn custody_line(e: &EntryRow, withheld: bool) -> String {
    let text = |s: &str| Value::from(s).to_string();
    if withheld {
        return format!(
            "{{\"item_id\":{},\"seq\":{},\"withheld\":true,\"prev_hash\":{},\"hash\":{}}}\n",
            text(&e.item_id.to_string()),
            e.seq,
            text(&e.prev_hash),
            text(&e.hash),
        );
    }
    format!(
        "{{\"item_id\":{},\"seq\":{},\"kind\":{},\"at\":{},\"detail\":{},\"prev_hash\":{},\"hash\":{}}}\n",
        text(&e.item_id.to_string()),
        e.seq,
        text(&e.kind),
        text(&e.at.to_rfc3339_opts(SecondsFormat::Micros, true)),
        text(&e.detail),
        text(&e.prev_hash),
        text(&e.hash),
    )
}

/// The manifest's exact bytes: a first line about the packet, then one line per file.
pub fn manifest(contents: &Contents, key_id: &str) -> String {
    let mut head = json!({
        "type": "evidence_packet",
        "version": MANIFEST_VERSION,
        "key_id": key_id,
        "folder": contents.folder_name,
        "generated_at": contents.generated_at.to_rfc3339_opts(SecondsFormat::Millis, true),
    });
    if let Some(recipient) = &contents.recipient {
        head["copies_sent_to"] = Value::from(recipient.sent_to.as_str());
        head["transaction_number"] = Value::from(recipient.transaction_number.as_str());
    }
    let lines: Vec<String> = contents
        .files
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let last = f.custody.last();
            let receipt = if f.receipt.is_some() {
                format!("receipts/{}.json", f.item_id)
            } else {
                String::new()
            };
            // Named in the signed manifest, so a timestamp removed from the packet is noticed.
            let timestamp = if f.receipt.as_ref().is_some_and(|r| r.timestamp.is_some()) {
                format!(",\"timestamp\":{}", Value::from(format!("receipts/{}.tsr", f.item_id)))
            } else {
                String::new()
            };
            let original = f.original_sha256.as_deref().map_or(String::new(), |sha| {
                format!(",\"original_sha256\":{}", Value::from(sha))
            });
            // Keys in a fixed order, which `verify.sh` does not depend on but a reader does.
            format!(
                "{{\"item_id\":{},\"path\":{},\"name\":{},\"sha256\":{}{},\"size\":{},\"receipt\":{}{},\"custody\":{},\"custody_seq\":{},\"custody_hash\":{}}}",
                Value::from(f.item_id.to_string()),
                Value::from(file_path(index, &f.name)),
                Value::from(f.name.as_str()),
                Value::from(f.sha256.as_str()),
                original,
                f.size,
                Value::from(receipt),
                timestamp,
                Value::from(format!("custody/{}.jsonl", f.item_id)),
                last.map_or(0, |e| e.seq),
                Value::from(last.map_or("", |e| e.hash.as_str())),
            )
        })
        .collect();
    let mut head = head.to_string();
    head.pop(); // the closing brace: the files follow
    format!("{head},\"files\":[\n{}\n]}}\n", lines.join(",\n"))
}

/// Writes the packet: everything small first, then each original as `originals` streams it.
pub async fn write<W, F>(
    out: W,
    contents: &Contents,
    keys: &SigningKeys,
    mut originals: F,
) -> io::Result<u64>
where
    W: AsyncWrite + Unpin,
    F: FnMut(Uuid) -> BoxStream<'static, io::Result<Bytes>>,
{
    let mut zip = ZipStream::new(out, contents.generated_at);
    zip.add_bytes("VERIFY.md", MODE_FILE, VERIFY_MD.as_bytes())
        .await?;
    zip.add_bytes("verify.sh", MODE_EXECUTABLE, VERIFY_SH.as_bytes())
        .await?;
    let manifest = manifest(contents, &keys.current_id());
    zip.add_bytes("manifest.json", MODE_FILE, manifest.as_bytes())
        .await?;
    zip.add_bytes(
        "manifest.sig",
        MODE_FILE,
        &raw(&keys.sign(manifest.as_bytes()))?,
    )
    .await?;
    let mut seen = BTreeSet::new();
    for key in &contents.keys {
        if seen.insert(key.id.clone()) {
            zip.add_bytes(
                &format!("keys/{}.pem", key.id),
                MODE_FILE,
                key.pem.as_bytes(),
            )
            .await?;
        }
    }
    if let Some(pem) = &contents.timestamp_authority_pem {
        zip.add_bytes(TSA_CA_PATH, MODE_FILE, pem.as_bytes())
            .await?;
    }
    for f in &contents.files {
        if let Some(receipt) = &f.receipt {
            let base = format!("receipts/{}", f.item_id);
            if let Some(token) = &receipt.timestamp {
                zip.add_bytes(&format!("{base}.tsr"), MODE_FILE, token)
                    .await?;
            }
            zip.add_bytes(
                &format!("{base}.json"),
                MODE_FILE,
                receipt.payload.as_bytes(),
            )
            .await?;
            zip.add_bytes(&format!("{base}.sig"), MODE_FILE, &raw(&receipt.signature)?)
                .await?;
        }
        let log: String = f
            .custody
            .iter()
            .map(|e| custody_line(e, f.withheld.contains(&e.seq)))
            .collect();
        zip.add_bytes(
            &format!("custody/{}.jsonl", f.item_id),
            MODE_FILE,
            log.as_bytes(),
        )
        .await?;
        for head in &f.heads {
            let base = format!("heads/{}-{}", f.item_id, head.seq);
            zip.add_bytes(&format!("{base}.json"), MODE_FILE, head.payload.as_bytes())
                .await?;
            zip.add_bytes(&format!("{base}.sig"), MODE_FILE, &raw(&head.signature)?)
                .await?;
        }
    }
    for (index, f) in contents.files.iter().enumerate() {
        let size = u64::try_from(f.size).unwrap_or(0);
        zip.add(
            &file_path(index, &f.name),
            MODE_FILE,
            size,
            originals(f.item_id),
        )
        .await?;
    }
    zip.finish().await
}

fn raw(signature: &str) -> io::Result<Vec<u8>> {
    STANDARD
        .decode(signature)
        .map_err(|e| io::Error::other(format!("a stored signature is not base64: {e}")))
}

#[cfg(test)]
mod tests {
    use std::{path::Path, process::Command};

    use futures::StreamExt;

    use super::*;
    use crate::app::custody::{GENESIS, entry_hash, head_payload};

    fn chain(item: Uuid, details: &[&str]) -> Vec<EntryRow> {
        let entries: Vec<(&str, &str)> = details.iter().map(|d| ("shared", *d)).collect();
        chain_of(item, &entries)
    }

    fn chain_of(item: Uuid, entries: &[(&str, &str)]) -> Vec<EntryRow> {
        let mut prev = GENESIS.to_owned();
        entries
            .iter()
            .zip(1..)
            .map(|((kind, detail), seq)| {
                let at = DateTime::from_timestamp(1_800_000_000 + seq, 1_000).unwrap_or_default();
                let hash = entry_hash(item, seq, kind, at, detail, &prev);
                let entry = EntryRow {
                    item_id: item,
                    seq,
                    kind: (*kind).to_owned(),
                    at,
                    detail: (*detail).to_owned(),
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

    fn head(keys: &SigningKeys, e: &EntryRow) -> HeadRow {
        let payload = head_payload(e.item_id, e.seq, &e.hash, e.at, &keys.current_id());
        HeadRow {
            item_id: e.item_id,
            seq: e.seq,
            hash: e.hash.clone(),
            signed_at: e.at,
            signature: keys.sign(payload.as_bytes()),
            payload,
        }
    }

    fn file(
        keys: &SigningKeys,
        id: Uuid,
        name: &str,
        bytes: &[u8],
        log: Vec<EntryRow>,
    ) -> PacketFile {
        PacketFile {
            item_id: id,
            name: name.to_owned(),
            sha256: sha256(bytes),
            size: bytes.len() as i64,
            original_sha256: None,
            receipt: None,
            heads: log.iter().map(|e| head(keys, e)).collect(),
            custody: log,
            withheld: BTreeSet::new(),
        }
    }

    fn sha256(bytes: &[u8]) -> String {
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(bytes))
    }

    /// Writes the packet with `bytes` as its files' contents and unpacks it into `dir`.
    async fn write_and_unpack(
        dir: &Path,
        keys: &SigningKeys,
        contents: &Contents,
        bytes: Vec<(Uuid, Vec<u8>)>,
    ) {
        let mut zip = Vec::new();
        write(&mut zip, contents, keys, |id| {
            let data = bytes
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, b)| b.clone())
                .unwrap_or_default();
            futures::stream::iter([Ok(Bytes::from(data))]).boxed()
        })
        .await
        .unwrap();
        let path = dir.join("packet.zip");
        std::fs::write(&path, zip).unwrap();
        let status = Command::new("unzip")
            .args(["-q", "-o", "-d"])
            .arg(dir)
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// A packet of two files, written and unpacked into `dir`.
    async fn unpacked(dir: &Path, keys: &SigningKeys, details: &[&str]) -> (Uuid, Vec<u8>) {
        let (first, second) = (Uuid::now_v7(), Uuid::now_v7());
        let photo = b"\xFF\xD8 not really a photo".repeat(1000);
        let clip = b"a recording".to_vec();
        let contents = Contents {
            folder_name: "Flat \"3\"".to_owned(),
            generated_at: Utc::now(),
            recipient: None,
            files: vec![
                file(keys, first, "Front door.jpg", &photo, chain(first, details)),
                file(
                    keys,
                    second,
                    "note.m4a",
                    &clip,
                    chain(second, &["device time"]),
                ),
            ],
            keys: keys.public_keys(),
            timestamp_authority_pem: None,
        };
        write_and_unpack(
            dir,
            keys,
            &contents,
            vec![(first, photo.clone()), (second, clip)],
        )
        .await;
        (first, photo)
    }

    fn verify(dir: &Path, older: Option<&Path>) -> (bool, String) {
        let mut command = Command::new("sh");
        command.arg(dir.join("verify.sh"));
        if let Some(older) = older {
            command.arg(older);
        }
        let out = command.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    }

    /// Details as a custody log may hold them: quotes, back slashes, control characters,
    /// non-ASCII, and what looks like JSON or a shell escape.
    const AWKWARD: [&str; 4] = [
        "device time",
        "to \"Zoë\" <zoe@example.com>, as an authenticated copy",
        "tab\there, new\nline, back\\slash \\n %s %b \u{1}",
        "\",\"prev_hash\":\"0000\"} ü €",
    ];

    #[tokio::test]
    async fn verify_sh_passes_a_whole_packet_with_awkward_details() {
        let dir = tempfile::tempdir().unwrap();
        unpacked(dir.path(), &SigningKeys::generate(), &AWKWARD).await;
        let (passed, out) = verify(dir.path(), None);
        assert!(passed, "{out}");
        assert!(out.contains("OK      files/01-Front_door.jpg"), "{out}");
        assert!(out.ends_with("OK: every check passed\n"), "{out}");
        assert!(!out.contains("FAILED"), "{out}");
    }

    #[tokio::test]
    async fn verify_sh_names_each_tampering() {
        let keys = SigningKeys::generate();
        let dir = tempfile::tempdir().unwrap();
        let (first, photo) = unpacked(dir.path(), &keys, &AWKWARD).await;
        let root = dir.path();
        let log = root.join(format!("custody/{first}.jsonl"));
        let original_log = std::fs::read_to_string(&log).unwrap();

        // One byte of a file.
        let mut changed = photo.clone();
        changed[500] ^= 1;
        std::fs::write(root.join("files/01-Front_door.jpg"), &changed).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains("FAILED  files/01-Front_door.jpg: its SHA-256 is"),
            "{out}"
        );
        std::fs::write(root.join("files/01-Front_door.jpg"), &photo).unwrap();
        assert!(verify(root, None).0);

        // One manifest entry.
        let manifest = std::fs::read_to_string(root.join("manifest.json")).unwrap();
        let forged = manifest.replace("\"name\":\"Front door.jpg\"", "\"name\":\"Back door.jpg\"");
        assert_ne!(forged, manifest);
        std::fs::write(root.join("manifest.json"), &forged).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains("FAILED  manifest.json: the signature does not match"),
            "{out}"
        );
        std::fs::write(root.join("manifest.json"), &manifest).unwrap();

        // A manifest re-signed with another key filed under our key's id.
        let forger = SigningKeys::generate();
        let pem = root.join(format!("keys/{}.pem", keys.current_id()));
        let ours = std::fs::read(&pem).unwrap();
        std::fs::write(&pem, &forger.public_keys()[0].pem).unwrap();
        let forged_signature = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            forger.sign(manifest.as_bytes()),
        )
        .unwrap();
        let genuine_signature = std::fs::read(root.join("manifest.sig")).unwrap();
        std::fs::write(root.join("manifest.sig"), forged_signature).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains("FAILED  manifest.json: the signature does not match"),
            "{out}"
        );
        std::fs::write(&pem, ours).unwrap();
        std::fs::write(root.join("manifest.sig"), genuine_signature).unwrap();
        assert!(verify(root, None).0);

        // One custody line: in the middle, then the last.
        let lines: Vec<&str> = original_log.lines().collect();
        let without_second = [lines[0], lines[2], lines[3]].join("\n") + "\n";
        std::fs::write(&log, without_second).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains(&format!(
                "FAILED  custody/{first}.jsonl: entry 2 is missing (the next line is entry 3)"
            )),
            "{out}"
        );
        std::fs::write(&log, lines[..3].join("\n") + "\n").unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains(&format!(
                "FAILED  custody/{first}.jsonl: it ends at entry 3 ("
            )),
            "{out}"
        );
        assert!(out.contains("the manifest says entry 4 ("), "{out}");

        // One changed detail, its hash left as it was.
        std::fs::write(&log, original_log.replace("device time", "device tame")).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(out.contains("entry 1 was changed"), "{out}");
        std::fs::write(&log, &original_log).unwrap();
        assert!(verify(root, None).0);
    }

    #[tokio::test]
    async fn an_older_packets_heads_show_a_history_rewritten_since() {
        let keys = SigningKeys::generate();
        let older = tempfile::tempdir().unwrap();
        let (first, _) = unpacked(older.path(), &keys, &["device time", "to a@example.com"]).await;
        // A later packet of the same file whose log was rewritten whole (rehashed, its head
        // signed again) passes on its own, and fails against the older packet's signed heads.
        let newer = tempfile::tempdir().unwrap();
        let contents_dir = newer.path();
        let log = chain(first, &["device time", "to b@example.com"]);
        let photo = std::fs::read(older.path().join("files/01-Front_door.jpg")).unwrap();
        let contents = Contents {
            folder_name: "Flat".to_owned(),
            generated_at: Utc::now(),
            recipient: None,
            files: vec![PacketFile {
                heads: vec![head(&keys, &log[1])],
                ..file(&keys, first, "Front door.jpg", &photo, log)
            }],
            keys: keys.public_keys(),
            timestamp_authority_pem: None,
        };
        write_and_unpack(contents_dir, &keys, &contents, vec![(first, photo)]).await;
        let (alone, out) = verify(contents_dir, None);
        assert!(alone, "{out}");
        let (passed, out) = verify(contents_dir, Some(older.path()));
        assert!(!passed);
        assert!(
            out.contains(&format!("(older packet): custody head 2 of {first}"))
                && out.contains("its history was rewritten"),
            "{out}"
        );
    }

    /// A recipient's packet: their copy, the original's signed receipt, and a log whose entries
    /// about another recipient are withheld. Returns the directory's copy bytes and item id.
    async fn recipients_packet(dir: &Path, keys: &SigningKeys) -> (Uuid, Vec<u8>, Vec<u8>) {
        let item = Uuid::now_v7();
        let original = b"\xFF\xD8 the original".repeat(500);
        let copy = b"\xFF\xD8 a watermarked copy".repeat(400);
        let (original_sha, copy_sha) = (sha256(&original), sha256(&copy));
        let verified = format!("SHA-256 {original_sha}");
        let made = format!("for bob@example.com (TN-1), SHA-256 {copy_sha}");
        let log = chain_of(
            item,
            &[
                ("captured", "device time"),
                ("verified", &verified),
                (
                    "shared",
                    "to alice@example.com as an authenticated copy, TN-0",
                ),
                (
                    "shared",
                    "to bob@example.com as an authenticated copy, TN-1",
                ),
                ("copy_generated", "for alice@example.com (TN-0), SHA-256 00"),
                ("copy_generated", &made),
            ],
        );
        let payload = format!(
            "{{\"item_id\":\"{item}\",\"key_id\":\"{}\",\"sha256\":\"{original_sha}\"}}",
            keys.current_id()
        );
        let contents = Contents {
            folder_name: "Flat".to_owned(),
            generated_at: Utc::now(),
            recipient: Some(Recipient {
                sent_to: "bob@example.com".to_owned(),
                transaction_number: "TN-1".to_owned(),
            }),
            files: vec![PacketFile {
                original_sha256: Some(original_sha),
                receipt: Some(SignedReceipt {
                    signature: keys.sign(payload.as_bytes()),
                    payload,
                    key_id: keys.current_id(),
                    timestamp: None,
                }),
                withheld: BTreeSet::from([3, 5]),
                heads: vec![head(keys, &log[5])],
                ..file(keys, item, "Front door (copy).jpg", &copy, log)
            }],
            keys: keys.public_keys(),
            timestamp_authority_pem: None,
        };
        write_and_unpack(dir, keys, &contents, vec![(item, copy.clone())]).await;
        (item, copy, original)
    }

    #[tokio::test]
    async fn a_recipients_packet_withholds_other_recipients_and_still_verifies() {
        let keys = SigningKeys::generate();
        let dir = tempfile::tempdir().unwrap();
        let (item, _, _) = recipients_packet(dir.path(), &keys).await;
        let log =
            std::fs::read_to_string(dir.path().join(format!("custody/{item}.jsonl"))).unwrap();
        assert!(!log.contains("alice"), "{log}");
        assert!(log.contains("bob@example.com"), "{log}");
        assert_eq!(log.matches("\"withheld\":true").count(), 2, "{log}");
        let (passed, out) = verify(dir.path(), None);
        assert!(passed, "{out}");
        assert!(
            out.contains("OK      files/01-Front_door__copy_.jpg: SHA-256 matches the manifest; it is the copy the custody log says was made from the original of the signed receipt"),
            "{out}"
        );
        assert!(
            out.contains("6 entries, each following the one before (2 about other recipients withheld: linked, not readable)"),
            "{out}"
        );
    }

    #[tokio::test]
    async fn verify_sh_fails_a_recipients_packet_whose_links_or_copy_do_not_hold() {
        let keys = SigningKeys::generate();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let (item, copy, original) = recipients_packet(root, &keys).await;
        let log = root.join(format!("custody/{item}.jsonl"));
        let genuine = std::fs::read_to_string(&log).unwrap();

        // A withheld entry's link changed.
        let lines: Vec<String> = genuine.lines().map(str::to_owned).collect();
        let mut forged = lines.clone();
        forged[2] = forged[2].replace("\"prev_hash\":\"", "\"prev_hash\":\"f");
        std::fs::write(&log, forged.join("\n") + "\n").unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains(&format!(
                "FAILED  custody/{item}.jsonl: entry 3 does not follow entry 2"
            )),
            "{out}"
        );
        std::fs::write(&log, &genuine).unwrap();

        // The original put in place of the copy: the manifest and the log name another file.
        std::fs::write(root.join("files/01-Front_door__copy_.jpg"), &original).unwrap();
        let (passed, out) = verify(root, None);
        assert!(!passed);
        assert!(
            out.contains("FAILED  files/01-Front_door__copy_.jpg: its SHA-256 is"),
            "{out}"
        );
        std::fs::write(root.join("files/01-Front_door__copy_.jpg"), &copy).unwrap();
        assert!(verify(root, None).0);
    }

    #[test]
    fn file_paths_are_numbered_and_safe() {
        assert_eq!(file_path(0, "Front door.jpg"), "files/01-Front_door.jpg");
        assert_eq!(file_path(11, "../../etc/passwd"), "files/12-_.._etc_passwd");
        assert_eq!(
            file_path(2, "\"quoted\", é.mp4"),
            "files/03-_quoted____.mp4"
        );
        assert_eq!(file_path(3, "..."), "files/04-file");
    }

    #[test]
    fn a_custody_line_escapes_its_detail_as_json() {
        let entry = EntryRow {
            item_id: Uuid::nil(),
            seq: 2,
            kind: "shared".to_owned(),
            at: DateTime::from_timestamp(1_800_000_000, 5_000).unwrap_or_default(),
            detail: "to \"Zoë\"\n".to_owned(),
            prev_hash: "a".repeat(64),
            hash: "b".repeat(64),
            share_id: None,
            delivery_id: None,
        };
        assert_eq!(
            custody_line(&entry, false),
            format!(
                "{{\"item_id\":\"00000000-0000-0000-0000-000000000000\",\"seq\":2,\"kind\":\"shared\",\"at\":\"2027-01-15T08:00:00.000005Z\",\"detail\":\"to \\\"Zoë\\\"\\n\",\"prev_hash\":\"{}\",\"hash\":\"{}\"}}\n",
                "a".repeat(64),
                "b".repeat(64)
            )
        );
    }
}
