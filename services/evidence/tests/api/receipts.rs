//! Signed receipts: a verified file's receipt states what was received and is checked by a third
//! party with openssl alone, against the published key; one changed byte fails; after a rotation
//! the old key is still published, and old receipts still check.

use std::{path::PathBuf, process::Command};

use base64::{Engine as _, engine::general_purpose::STANDARD};
use evidence::receipts::ReceiptKeys;
use evidentia_common::proto::evidence::v1 as pb;
use serde_json::Value;
use uuid::Uuid;

use crate::helpers::{TestApp, capture, sha256};

/// Whether `openssl pkeyutl -verify` accepts `signature` (base64) of `payload` by `pem`.
fn openssl_verifies(pem: &str, payload: &[u8], signature: &str) -> bool {
    let dir: PathBuf = std::env::temp_dir().join(format!("receipt-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("key.pem"), pem).unwrap();
    std::fs::write(dir.join("payload"), payload).unwrap();
    std::fs::write(dir.join("signature"), STANDARD.decode(signature).unwrap()).unwrap();
    let output = Command::new("openssl")
        .args([
            "pkeyutl", "-verify", "-pubin", "-inkey", "key.pem", "-rawin",
        ])
        .args(["-in", "payload", "-sigfile", "signature"])
        .current_dir(&dir)
        .output()
        .expect("openssl runs");
    std::fs::remove_dir_all(&dir).unwrap();
    output.status.success()
}

async fn keys(app: &TestApp) -> Vec<pb::ReceiptKey> {
    app.user()
        .client()
        .list_receipt_keys(pb::ListReceiptKeysRequest {})
        .await
        .unwrap()
        .into_inner()
        .keys
}

/// A verified JPEG's item and the bytes it holds.
async fn verified(app: &TestApp) -> (pb::Item, Vec<u8>) {
    let user = app.user();
    let folder = user.folder("Flat inventory").await;
    let bytes = b"\xff\xd8\xff a receipt's JPEG stand-in".repeat(50);
    let created = user
        .create_item(capture(&folder, &bytes, "image/jpeg"))
        .await
        .unwrap();
    (user.upload_and_verify(&created, bytes.clone()).await, bytes)
}

#[tokio::test]
async fn a_verified_file_gets_a_receipt_anyone_can_check_with_openssl() {
    let app = TestApp::spawn_with(|c| c.receipts = ReceiptKeys::generate()).await;
    let (item, bytes) = verified(&app).await;
    let receipt = item.receipt.expect("a verified file has a receipt");

    let facts: Value = serde_json::from_str(&receipt.payload).unwrap();
    assert_eq!(facts["item_id"], item.id.as_str());
    assert_eq!(facts["sha256"], sha256(&bytes).as_str());
    assert_eq!(facts["size"], i64::try_from(bytes.len()).unwrap());
    assert_eq!(facts["media_type"], "image/jpeg");
    assert_eq!(facts["captured_at"], "2026-01-15T10:00:00.000Z");
    assert_eq!(facts["place"], "52.370000,4.890000");
    assert_eq!(facts["version"], 1);
    assert!(
        facts["received_at"]
            .as_str()
            .is_some_and(|t| t > "2026-01-15")
    );
    assert!(facts["owner"].as_str().is_some_and(|o| o.len() == 32));

    let published = keys(&app).await;
    assert_eq!(published.len(), 1);
    let key = &published[0];
    assert!(key.current);
    assert_eq!(
        (key.algorithm.as_str(), key.id.as_str()),
        ("Ed25519", receipt.key_id.as_str())
    );
    assert_eq!(facts["key_id"], key.id.as_str());
    assert!(openssl_verifies(
        &key.pem,
        receipt.payload.as_bytes(),
        &receipt.signature
    ));

    // One changed byte, or another key, and it no longer checks.
    let mut changed = receipt.payload.clone().into_bytes();
    let at = changed.len() - 5;
    changed[at] ^= 1;
    assert!(!openssl_verifies(&key.pem, &changed, &receipt.signature));
    let stranger = &ReceiptKeys::generate().public_keys()[0];
    assert!(!openssl_verifies(
        &stranger.pem,
        receipt.payload.as_bytes(),
        &receipt.signature
    ));
    app.service.stop().await;
}

#[tokio::test]
async fn after_a_rotation_the_old_key_stays_published_and_old_receipts_still_check() {
    let old_keys = ReceiptKeys::generate();
    let before = TestApp::spawn_with(|c| c.receipts = old_keys.clone()).await;
    let (item, _) = verified(&before).await;
    let receipt = item.receipt.unwrap();
    before.service.stop().await;

    let rotated = ReceiptKeys::generate()
        .with_retired(&old_keys.public_keys())
        .unwrap();
    let after = TestApp::spawn_with(|c| c.receipts = rotated.clone()).await;
    let published = keys(&after).await;
    assert_eq!(published.len(), 2);
    assert!(published[0].current && !published[1].current);
    assert_eq!(published[0].id, rotated.current_id());
    let old = published
        .iter()
        .find(|k| k.id == receipt.key_id)
        .expect("the old receipt's key is still published");
    assert!(!old.current);
    assert!(openssl_verifies(
        &old.pem,
        receipt.payload.as_bytes(),
        &receipt.signature
    ));
    after.service.stop().await;
}
