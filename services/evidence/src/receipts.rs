//! Signed receipts: when an item is verified, evidence signs what it received with Ed25519, so
//! that anyone holding the receipt and the public key can check it without trusting our servers.
//!
//! The signed bytes are a receipt's `payload` exactly as stored: a JSON object with its keys in
//! sorted order and no white space, holding only strings and integers (no floating point, so no
//! two ways to write a number): `captured_at` (the device's capture time), `item_id`, `key_id`,
//! `media_type`, `owner` (an opaque id of the owner, the same for all their receipts under one
//! key), `place` ("latitude,longitude" with six decimals, or ""), `received_at` (when the upload
//! reached us), `sha256`, `size` and `version`. The signature is the 64-byte Ed25519 signature of
//! those bytes, in standard base64; `openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in
//! payload -sigfile signature.bin` checks it.
//!
//! The key and its id are `evidentia_common::signing`'s; retired keys (after a rotation) are
//! published beside the current one, so older receipts stay verifiable.

use std::collections::BTreeMap;

use chrono::{DateTime, SecondsFormat, Utc};
use evidentia_common::signing::SigningKeys;
pub use evidentia_common::signing::{PublicKey, key_id_of, verify};
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use uuid::Uuid;

/// The receipt format's version, signed with it.
pub const VERSION: i64 = 1;

/// What a receipt states about an item.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub item_id: Uuid,
    pub owner_id: Uuid,
    pub sha256: String,
    pub size: i64,
    /// The MIME type the file was stored as.
    pub media_type: String,
    pub captured_at: DateTime<Utc>,
    pub received_at: DateTime<Utc>,
    pub place: Option<(f64, f64)>,
}

/// A signed receipt: the exact bytes signed, and the signature in standard base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub payload: String,
    pub signature: String,
}

/// The signing keys, with what receipts add: the opaque owner id.
#[derive(Debug, Clone)]
pub struct ReceiptKeys(SigningKeys);

impl From<SigningKeys> for ReceiptKeys {
    fn from(keys: SigningKeys) -> Self {
        Self(keys)
    }
}

impl ReceiptKeys {
    /// A fresh random key (tests, and nowhere else).
    pub fn generate() -> Self {
        Self(SigningKeys::generate())
    }

    /// The same keys with `retired` public keys added (a rotation: the old key's public half).
    pub fn with_retired(self, retired: &[PublicKey]) -> anyhow::Result<Self> {
        Ok(Self(self.0.with_retired(retired)?))
    }

    pub fn current_id(&self) -> String {
        self.0.current_id()
    }

    /// Signs the receipt of `facts`.
    pub fn sign(&self, facts: &Facts) -> Receipt {
        let payload = payload(facts, &self.current_id(), &self.owner_ref(facts.owner_id));
        Receipt {
            signature: self.0.sign(payload.as_bytes()),
            payload,
        }
    }

    /// The current key first, then the retired ones.
    pub fn public_keys(&self) -> Vec<PublicKey> {
        self.0.public_keys()
    }

    /// An opaque, stable id of the owner under this key: an HMAC of the owner's id with a key
    /// derived from the signing key, so receipts do not reveal account ids.
    fn owner_ref(&self, owner: Uuid) -> String {
        let derived = self.0.derive(b"evidentia receipt owner");
        let mut mac = Hmac::<Sha256>::new_from_slice(&derived)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(owner.as_bytes());
        hex::encode(&mac.finalize().into_bytes()[..16])
    }
}

/// The canonical bytes of a receipt (keys sorted by the map, no white space).
fn payload(facts: &Facts, key_id: &str, owner: &str) -> String {
    let time = |t: DateTime<Utc>| Value::from(t.to_rfc3339_opts(SecondsFormat::Millis, true));
    let place = facts
        .place
        .map(|(lat, lng)| format!("{lat:.6},{lng:.6}"))
        .unwrap_or_default();
    let fields: BTreeMap<&str, Value> = BTreeMap::from([
        ("captured_at", time(facts.captured_at)),
        ("item_id", Value::from(facts.item_id.to_string())),
        ("key_id", Value::from(key_id)),
        ("media_type", Value::from(facts.media_type.as_str())),
        ("owner", Value::from(owner)),
        ("place", Value::from(place)),
        ("received_at", time(facts.received_at)),
        ("sha256", Value::from(facts.sha256.as_str())),
        ("size", Value::from(facts.size)),
        ("version", Value::from(VERSION)),
    ]);
    serde_json::to_string(&fields).unwrap_or_else(|_| unreachable!("strings and integers"))
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn facts() -> Facts {
        Facts {
            item_id: Uuid::nil(),
            owner_id: Uuid::max(),
            sha256: "ab".repeat(32),
            size: 1234,
            media_type: "image/jpeg".to_owned(),
            captured_at: Utc.with_ymd_and_hms(2026, 11, 27, 8, 0, 0).unwrap(),
            received_at: Utc.with_ymd_and_hms(2026, 11, 27, 8, 0, 5).unwrap(),
            place: Some((51.5074, -0.1278)),
        }
    }

    #[test]
    fn the_payload_is_sorted_compact_json_of_strings_and_integers() {
        let keys = ReceiptKeys::generate();
        let receipt = keys.sign(&facts());
        let expected_start = r#"{"captured_at":"2026-11-27T08:00:00.000Z","item_id":"00000000-0000-0000-0000-000000000000","key_id":""#;
        assert!(
            receipt.payload.starts_with(expected_start),
            "{}",
            receipt.payload
        );
        assert!(
            receipt.payload.ends_with(&format!(
                r#""place":"51.507400,-0.127800","received_at":"2026-11-27T08:00:05.000Z","sha256":"{}","size":1234,"version":1}}"#,
                "ab".repeat(32)
            )),
            "{}",
            receipt.payload
        );
        assert!(
            !receipt.payload.contains(&Uuid::max().to_string()),
            "the owner is opaque"
        );
    }

    #[test]
    fn a_receipt_verifies_with_its_key_and_not_once_changed() {
        let keys = ReceiptKeys::generate();
        let receipt = keys.sign(&facts());
        let public = &keys.public_keys()[0];
        assert!(public.current);
        assert!(receipt.payload.contains(&public.id));
        assert!(verify(
            receipt.payload.as_bytes(),
            &receipt.signature,
            public
        ));
        let changed = receipt.payload.replace("1234", "1235");
        assert!(!verify(changed.as_bytes(), &receipt.signature, public));
        let other = &ReceiptKeys::generate().public_keys()[0];
        assert!(!verify(
            receipt.payload.as_bytes(),
            &receipt.signature,
            other
        ));
    }

    #[test]
    fn the_owner_id_is_stable_under_a_key_and_differs_between_owners() {
        let keys = ReceiptKeys::generate();
        assert_eq!(keys.owner_ref(Uuid::max()), keys.owner_ref(Uuid::max()));
        assert_ne!(keys.owner_ref(Uuid::max()), keys.owner_ref(Uuid::nil()));
    }
}
