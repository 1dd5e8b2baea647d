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
//! The key's id is the first 16 hex digits of the SHA-256 of its 32-byte public key. Retired keys
//! (after a rotation) are published beside the current one, so older receipts stay verifiable.

use std::{collections::BTreeMap, fmt, sync::Arc};

use base64::{Engine as _, engine::general_purpose::STANDARD};
use chrono::{DateTime, SecondsFormat, Utc};
use ed25519_dalek::{
    Signature, Signer as _, SigningKey, Verifier as _, VerifyingKey,
    pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePublicKey, spki::der::pem::LineEnding},
};
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};
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

/// A published public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    pub id: String,
    /// SubjectPublicKeyInfo PEM, as `openssl pkeyutl -pubin` reads it.
    pub pem: String,
    /// The raw 32 bytes in standard base64 (as WebCrypto imports them).
    pub raw: String,
    pub current: bool,
}

/// The current signing key and the retired public keys.
#[derive(Clone)]
pub struct ReceiptKeys {
    signing: Arc<SigningKey>,
    retired: Vec<VerifyingKey>,
}

impl fmt::Debug for ReceiptKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReceiptKeys")
            .field("current", &key_id(&self.signing.verifying_key()))
            .field(
                "retired",
                &self.retired.iter().map(key_id).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The id of a public key: 16 hex digits of the SHA-256 of its raw bytes.
pub fn key_id(key: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(key.as_bytes())[..8])
}

impl ReceiptKeys {
    /// From a PKCS#8 PEM private key (what `openssl genpkey -algorithm ed25519` writes) and any
    /// number of retired SubjectPublicKeyInfo PEM public keys, one after the other.
    pub fn from_pem(private: &str, retired: &str) -> anyhow::Result<Self> {
        let signing = SigningKey::from_pkcs8_pem(private.trim()).map_err(|e| {
            anyhow::anyhow!("the receipt signing key is not an Ed25519 PKCS#8 PEM key: {e}")
        })?;
        let mut keys = Vec::new();
        for block in retired.split_inclusive("-----END PUBLIC KEY-----") {
            let block = block.trim();
            if block.is_empty() {
                continue;
            }
            keys.push(VerifyingKey::from_public_key_pem(block).map_err(|e| {
                anyhow::anyhow!("a retired receipt key is not an Ed25519 public key PEM: {e}")
            })?);
        }
        Ok(Self {
            signing: Arc::new(signing),
            retired: keys,
        })
    }

    /// A fresh random key (tests, and nowhere else).
    pub fn generate() -> Self {
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&Sha256::digest(Uuid::new_v4().as_bytes()));
        Self {
            signing: Arc::new(SigningKey::from_bytes(&seed)),
            retired: Vec::new(),
        }
    }

    /// The same keys with `retired` public keys added (a rotation: the old key's public half).
    pub fn with_retired(mut self, retired: &[PublicKey]) -> anyhow::Result<Self> {
        for key in retired {
            self.retired
                .push(VerifyingKey::from_public_key_pem(&key.pem)?);
        }
        Ok(self)
    }

    pub fn current_id(&self) -> String {
        key_id(&self.signing.verifying_key())
    }

    /// Signs the receipt of `facts`.
    pub fn sign(&self, facts: &Facts) -> Receipt {
        let payload = payload(facts, &self.current_id(), &self.owner_ref(facts.owner_id));
        let signature = self.signing.sign(payload.as_bytes());
        Receipt {
            signature: STANDARD.encode(signature.to_bytes()),
            payload,
        }
    }

    /// The current key first, then the retired ones.
    pub fn public_keys(&self) -> Vec<PublicKey> {
        std::iter::once((self.signing.verifying_key(), true))
            .chain(self.retired.iter().map(|k| (*k, false)))
            .map(|(key, current)| PublicKey {
                id: key_id(&key),
                pem: key.to_public_key_pem(LineEnding::LF).unwrap_or_default(),
                raw: STANDARD.encode(key.as_bytes()),
                current,
            })
            .collect()
    }

    /// An opaque, stable id of the owner under this key: an HMAC of the owner's id with a key
    /// derived from the signing key, so receipts do not reveal account ids.
    fn owner_ref(&self, owner: Uuid) -> String {
        let derived = {
            let mut mac = Hmac::<Sha256>::new_from_slice(self.signing.as_bytes())
                .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
            mac.update(b"evidentia receipt owner");
            mac.finalize().into_bytes()
        };
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

/// The `key_id` a payload names.
pub fn key_id_of(payload: &str) -> Option<String> {
    serde_json::from_str::<Value>(payload)
        .ok()?
        .get("key_id")?
        .as_str()
        .map(str::to_owned)
}

/// Whether `signature` (standard base64) is `key`'s signature of `payload`.
pub fn verify(payload: &str, signature: &str, key: &PublicKey) -> bool {
    let Ok(key) = VerifyingKey::from_public_key_pem(&key.pem) else {
        return false;
    };
    let Some(signature) = STANDARD
        .decode(signature)
        .ok()
        .and_then(|b| Signature::from_slice(&b).ok())
    else {
        return false;
    };
    key.verify(payload.as_bytes(), &signature).is_ok()
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
        assert!(verify(&receipt.payload, &receipt.signature, public));
        let changed = receipt.payload.replace("1234", "1235");
        assert!(!verify(&changed, &receipt.signature, public));
        let other = &ReceiptKeys::generate().public_keys()[0];
        assert!(!verify(&receipt.payload, &receipt.signature, other));
    }

    #[test]
    fn after_a_rotation_the_old_key_is_published_retired_and_still_verifies() {
        let old = ReceiptKeys::generate();
        let receipt = old.sign(&facts());
        let new = ReceiptKeys::generate()
            .with_retired(&old.public_keys())
            .unwrap();
        let published = new.public_keys();
        assert_eq!(published.len(), 2);
        assert!(published[0].current && !published[1].current);
        assert_eq!(published[1].id, old.current_id());
        assert!(verify(&receipt.payload, &receipt.signature, &published[1]));
        // Read back from PEM as configuration gives them.
        let reread = ReceiptKeys::from_pem(
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n",
            &format!("{}\n{}", published[1].pem, published[0].pem),
        )
        .unwrap();
        assert_eq!(reread.public_keys().len(), 3);
    }

    #[test]
    fn the_owner_id_is_stable_under_a_key_and_differs_between_owners() {
        let keys = ReceiptKeys::generate();
        assert_eq!(keys.owner_ref(Uuid::max()), keys.owner_ref(Uuid::max()));
        assert_ne!(keys.owner_ref(Uuid::max()), keys.owner_ref(Uuid::nil()));
    }
}
