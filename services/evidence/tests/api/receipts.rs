//! Signed receipts: a verified file's receipt states what was received and is checked by a third
//! party with openssl alone, against the published key; one changed byte fails; after a rotation
//! the old key is still published, and old receipts still check. With a time-stamping authority
//! configured (a local one: OpenSSL's `ts -reply` over HTTP), each receipt gets its RFC 3161
//! token once the authority answers.

use std::{path::PathBuf, process::Command, sync::atomic::Ordering, time::Duration};

use base64::{Engine as _, engine::general_purpose::STANDARD};
use evidence::{receipts::ReceiptKeys, timestamps::Tsa};
use evidentia_common::{proto::evidence::v1 as pb, testing};
use serde_json::Value;
use uuid::Uuid;

use crate::helpers::{TestApp, User, capture, sha256};

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
    verified_by(&app.user()).await
}

async fn verified_by(user: &User) -> (pb::Item, Vec<u8>) {
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

/// Whether `openssl ts -verify` accepts `token` as a timestamp of `data` by the CA `ca_pem`.
fn openssl_ts_verifies(ca_pem: &str, data: &[u8], token: &[u8]) -> bool {
    let dir: PathBuf = std::env::temp_dir().join(format!("timestamp-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ca.pem"), ca_pem).unwrap();
    std::fs::write(dir.join("data"), data).unwrap();
    std::fs::write(dir.join("token.tsr"), token).unwrap();
    let output = Command::new("openssl")
        .args([
            "ts",
            "-verify",
            "-data",
            "data",
            "-in",
            "token.tsr",
            "-token_in",
        ])
        .args(["-CAfile", "ca.pem"])
        .current_dir(&dir)
        .output()
        .expect("openssl runs");
    std::fs::remove_dir_all(&dir).unwrap();
    output.status.success()
}

#[tokio::test]
async fn with_an_authority_configured_each_receipt_gets_a_timestamp_once_it_answers() {
    let tsa = testing::LocalTsa::start();
    tsa.down.store(true, Ordering::SeqCst);
    let authority = Tsa::new(tsa.url.clone(), tsa.ca_pem.clone(), Duration::from_secs(5)).unwrap();
    let app = TestApp::spawn_with(|c| {
        c.timestamps = Some(authority);
        c.timestamp_interval_seconds = 1;
    })
    .await;
    let user = app.user();

    // The authority is down: the file is verified and its receipt signed all the same.
    let (item, _) = verified_by(&user).await;
    let receipt = item
        .receipt
        .clone()
        .expect("a receipt without waiting for the authority");
    assert!(receipt.timestamp_token.is_empty() && receipt.timestamped_at.is_none());
    tokio::time::sleep(Duration::from_secs(2)).await;
    let still = user.item(&item.id).await.unwrap().receipt.unwrap();
    assert!(
        still.timestamp_token.is_empty(),
        "no token while the authority is down"
    );

    // Once it answers, the receipt gets its token: of the signature, by the authority's CA.
    tsa.down.store(false, Ordering::SeqCst);
    let stamped = testing::eventually("the receipt's timestamp", Duration::from_secs(30), || {
        let user = &user;
        let id = item.id.clone();
        async move {
            let receipt = user.item(&id).await.ok()?.receipt?;
            (!receipt.timestamp_token.is_empty()).then_some(receipt)
        }
    })
    .await;
    assert_eq!(stamped.signature, receipt.signature, "the same receipt");
    let signature = STANDARD.decode(&stamped.signature).unwrap();
    assert!(openssl_ts_verifies(
        &tsa.ca_pem,
        &signature,
        &stamped.timestamp_token
    ));
    let at = evidentia_common::time::datetime(&stamped.timestamped_at.unwrap()).unwrap();
    assert!((chrono::Utc::now() - at).num_seconds().abs() < 60, "{at}");

    // Another signature, or another authority, and the token no longer checks.
    let mut other = signature.clone();
    other[0] ^= 1;
    assert!(!openssl_ts_verifies(
        &tsa.ca_pem,
        &other,
        &stamped.timestamp_token
    ));
    let stranger = testing::LocalTsa::start();
    assert!(!openssl_ts_verifies(
        &stranger.ca_pem,
        &signature,
        &stamped.timestamp_token
    ));

    // The authority's certificate is published with the keys.
    let published = user
        .client()
        .list_receipt_keys(pb::ListReceiptKeysRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(published.timestamp_authority_pem, tsa.ca_pem);
    app.service.stop().await;
}
