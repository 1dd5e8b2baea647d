//! The evidence packet: a ZIP anyone can check offline, without trusting our servers.
//!
//! ```text
//! VERIFY.md                      how to check it, for a lawyer
//! verify.sh                      the check, with sha256sum and openssl only
//! manifest.json, manifest.sig    every file's SHA-256, receipt and custody head; signed
//! keys/KEY_ID.pem                the public keys (also at /api/.well-known/receipt-keys)
//! files/NN-NAME                  the originals
//! receipts/ITEM.json, .sig       each original's signed receipt, exactly as signed
//! custody/ITEM.jsonl             each original's custody log, one entry per line
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

/// One original in the packet.
#[derive(Debug, Clone)]
pub struct PacketFile {
    pub item_id: Uuid,
    pub name: String,
    pub sha256: String,
    pub size: i64,
    pub receipt: Option<SignedReceipt>,
    /// The item's custody log, in order (never empty: the packet starts one).
    pub custody: Vec<EntryRow>,
    pub heads: Vec<HeadRow>,
}

/// What a packet holds, but the files' bytes.
#[derive(Debug, Clone)]
pub struct Contents {
    pub folder_name: String,
    pub generated_at: DateTime<Utc>,
    pub files: Vec<PacketFile>,
    /// Every published key, so any receipt or head in the packet can be checked.
    pub keys: Vec<PublicKey>,
}

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

/// A custody entry as one JSON line, keys in the order `verify.sh` reads them.
pub fn custody_line(e: &EntryRow) -> String {
    let text = |s: &str| Value::from(s).to_string();
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
    let head = json!({
        "type": "evidence_packet",
        "version": MANIFEST_VERSION,
        "key_id": key_id,
        "folder": contents.folder_name,
        "generated_at": contents.generated_at.to_rfc3339_opts(SecondsFormat::Millis, true),
    });
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
            // Keys in a fixed order, which `verify.sh` does not depend on but a reader does.
            format!(
                "{{\"item_id\":{},\"path\":{},\"name\":{},\"sha256\":{},\"size\":{},\"receipt\":{},\"custody\":{},\"custody_seq\":{},\"custody_hash\":{}}}",
                Value::from(f.item_id.to_string()),
                Value::from(file_path(index, &f.name)),
                Value::from(f.name.as_str()),
                Value::from(f.sha256.as_str()),
                f.size,
                Value::from(receipt),
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
    for f in &contents.files {
        if let Some(receipt) = &f.receipt {
            let base = format!("receipts/{}", f.item_id);
            zip.add_bytes(
                &format!("{base}.json"),
                MODE_FILE,
                receipt.payload.as_bytes(),
            )
            .await?;
            zip.add_bytes(&format!("{base}.sig"), MODE_FILE, &raw(&receipt.signature)?)
                .await?;
        }
        let log: String = f.custody.iter().map(custody_line).collect();
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
        let mut prev = GENESIS.to_owned();
        details
            .iter()
            .zip(1..)
            .map(|(detail, seq)| {
                let at = DateTime::from_timestamp(1_800_000_000 + seq, 1_000).unwrap_or_default();
                let hash = entry_hash(item, seq, "shared", at, detail, &prev);
                let entry = EntryRow {
                    item_id: item,
                    seq,
                    kind: "shared".to_owned(),
                    at,
                    detail: (*detail).to_owned(),
                    prev_hash: prev.clone(),
                    hash: hash.clone(),
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

    /// A packet of two files, written and unpacked into `dir`.
    async fn unpacked(dir: &Path, keys: &SigningKeys, details: &[&str]) -> (Uuid, Vec<u8>) {
        let (first, second) = (Uuid::now_v7(), Uuid::now_v7());
        let photo = b"\xFF\xD8 not really a photo".repeat(1000);
        let clip = b"a recording".to_vec();
        let file = |id: Uuid, name: &str, bytes: &[u8], log: Vec<EntryRow>| PacketFile {
            item_id: id,
            name: name.to_owned(),
            sha256: hex::encode(sha2::Sha256::digest(bytes)),
            size: bytes.len() as i64,
            receipt: None,
            heads: log.iter().map(|e| head(keys, e)).collect(),
            custody: log,
        };
        use sha2::Digest as _;
        let contents = Contents {
            folder_name: "Flat \"3\"".to_owned(),
            generated_at: Utc::now(),
            files: vec![
                file(first, "Front door.jpg", &photo, chain(first, details)),
                file(second, "note.m4a", &clip, chain(second, &["device time"])),
            ],
            keys: keys.public_keys(),
        };
        let mut zip = Vec::new();
        let bytes = [(first, photo.clone()), (second, clip)];
        write(&mut zip, &contents, keys, |id| {
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
            files: vec![PacketFile {
                item_id: first,
                name: "Front door.jpg".to_owned(),
                sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&photo)),
                size: photo.len() as i64,
                receipt: None,
                heads: vec![head(&keys, &log[1])],
                custody: log,
            }],
            keys: keys.public_keys(),
        };
        let mut zip = Vec::new();
        write(&mut zip, &contents, &keys, |_| {
            futures::stream::iter([Ok(Bytes::from(photo.clone()))]).boxed()
        })
        .await
        .unwrap();
        std::fs::write(contents_dir.join("p.zip"), zip).unwrap();
        assert!(
            Command::new("unzip")
                .args(["-q", "-d"])
                .arg(contents_dir)
                .arg(contents_dir.join("p.zip"))
                .status()
                .unwrap()
                .success()
        );
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
        };
        assert_eq!(
            custody_line(&entry),
            format!(
                "{{\"item_id\":\"00000000-0000-0000-0000-000000000000\",\"seq\":2,\"kind\":\"shared\",\"at\":\"2027-01-15T08:00:00.000005Z\",\"detail\":\"to \\\"Zoë\\\"\\n\",\"prev_hash\":\"{}\",\"hash\":\"{}\"}}\n",
                "a".repeat(64),
                "b".repeat(64)
            )
        );
    }
}
