//! The service's Ed25519 signing key: evidence signs receipts with it, sharing signs the heads of
//! custody logs and the manifests of evidence packets. Anyone holding a signed payload and the
//! public key checks it without trusting our servers:
//! `openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in payload -sigfile signature.bin`.
//!
//! A key's id is the first 16 hex digits of the SHA-256 of its 32-byte public key. Retired keys
//! (after a rotation) are published beside the current one, so what they signed stays checkable.

use std::{fmt, sync::Arc};

use base64::{Engine as _, engine::general_purpose::STANDARD};
use ed25519_dalek::{
    Signature, Signer as _, SigningKey, Verifier as _, VerifyingKey,
    pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePublicKey, spki::der::pem::LineEnding},
};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::config::{ConfigError, env_or};

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
pub struct SigningKeys {
    signing: Arc<SigningKey>,
    retired: Vec<VerifyingKey>,
}

impl fmt::Debug for SigningKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKeys")
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

impl SigningKeys {
    /// From a PKCS#8 PEM private key (what `openssl genpkey -algorithm ed25519` writes) and any
    /// number of retired SubjectPublicKeyInfo PEM public keys, one after the other.
    pub fn from_pem(private: &str, retired: &str) -> anyhow::Result<Self> {
        let signing = SigningKey::from_pkcs8_pem(private.trim()).map_err(|e| {
            anyhow::anyhow!("the signing key is not an Ed25519 PKCS#8 PEM key: {e}")
        })?;
        let mut keys = Vec::new();
        for block in retired.split_inclusive("-----END PUBLIC KEY-----") {
            let block = block.trim();
            if block.is_empty() {
                continue;
            }
            keys.push(VerifyingKey::from_public_key_pem(block).map_err(|e| {
                anyhow::anyhow!("a retired signing key is not an Ed25519 public key PEM: {e}")
            })?);
        }
        Ok(Self {
            signing: Arc::new(signing),
            retired: keys,
        })
    }

    /// The key configured for the service named `prefix` (`EVIDENCE`, `SHARING`): the PKCS#8 PEM
    /// in `{prefix}_RECEIPT_KEY` (in Kubernetes from a Secret), else in the file
    /// `{prefix}_RECEIPT_KEY_FILE` (`./dev` makes one locally); and the retired public keys, PEM
    /// one after the other, in `{prefix}_RECEIPT_RETIRED_KEYS` (not secret).
    pub fn from_env(prefix: &str) -> Result<Self, ConfigError> {
        let inline_name = format!("{prefix}_RECEIPT_KEY");
        let file_name = format!("{prefix}_RECEIPT_KEY_FILE");
        let error = |name: &str, value: &str, reason: String| ConfigError {
            name: name.into(),
            value: value.to_owned(),
            reason,
        };
        let inline: String = env_or(&inline_name, "")?;
        let (name, private) = if inline.trim().is_empty() {
            let file: String = env_or(&file_name, "")?;
            if file.is_empty() {
                return Err(error(
                    &inline_name,
                    "",
                    format!(
                        "must hold the PEM of the Ed25519 signing key (openssl genpkey -algorithm \
                         ed25519), or {file_name} name its file; ./dev makes one locally"
                    ),
                ));
            }
            let pem = std::fs::read_to_string(&file)
                .map_err(|e| error(&file_name, &file, format!("cannot be read: {e}")))?;
            (file_name, pem)
        } else {
            (inline_name, inline)
        };
        let retired: String = env_or(&format!("{prefix}_RECEIPT_RETIRED_KEYS"), "")?;
        // The error names the variable, never its (secret) value.
        Self::from_pem(&private, &retired).map_err(|e| error(&name, "(not shown)", e.to_string()))
    }

    /// A fresh random key (tests, and nowhere else).
    pub fn generate() -> Self {
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&Sha256::digest(uuid::Uuid::new_v4().as_bytes()));
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

    /// The 64-byte signature of `payload`, in standard base64.
    pub fn sign(&self, payload: &[u8]) -> String {
        STANDARD.encode(self.signing.sign(payload).to_bytes())
    }

    /// A secret derived from the signing key for one purpose (`label`): stable while the key is,
    /// and telling nothing of the key.
    pub fn derive(&self, label: &[u8]) -> [u8; 32] {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.signing.as_bytes())
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(label);
        mac.finalize().into_bytes().into()
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
}

/// The `key_id` a signed JSON payload names.
pub fn key_id_of(payload: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(payload)
        .ok()?
        .get("key_id")?
        .as_str()
        .map(str::to_owned)
}

/// Whether `signature` (standard base64) is `key`'s signature of `payload`.
pub fn verify(payload: &[u8], signature: &str, key: &PublicKey) -> bool {
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
    key.verify(payload, &signature).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_with_its_key_and_not_once_changed() {
        let keys = SigningKeys::generate();
        let signature = keys.sign(b"payload");
        let public = &keys.public_keys()[0];
        assert!(public.current);
        assert_eq!(public.id, keys.current_id());
        assert!(verify(b"payload", &signature, public));
        assert!(!verify(b"payloae", &signature, public));
        let other = &SigningKeys::generate().public_keys()[0];
        assert!(!verify(b"payload", &signature, other));
    }

    #[test]
    fn after_a_rotation_the_old_key_is_published_retired_and_still_verifies() {
        let old = SigningKeys::generate();
        let signature = old.sign(b"old");
        let new = SigningKeys::generate()
            .with_retired(&old.public_keys())
            .unwrap();
        let published = new.public_keys();
        assert_eq!(published.len(), 2);
        assert!(published[0].current && !published[1].current);
        assert_eq!(published[1].id, old.current_id());
        assert!(verify(b"old", &signature, &published[1]));
        // Read back from PEM as configuration gives them.
        let reread = SigningKeys::from_pem(
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n",
            &format!("{}\n{}", published[1].pem, published[0].pem),
        )
        .unwrap();
        assert_eq!(reread.public_keys().len(), 3);
    }

    #[test]
    fn derived_secrets_differ_by_purpose_and_by_key() {
        let keys = SigningKeys::generate();
        assert_eq!(keys.derive(b"a"), keys.derive(b"a"));
        assert_ne!(keys.derive(b"a"), keys.derive(b"b"));
        assert_ne!(keys.derive(b"a"), SigningKeys::generate().derive(b"a"));
    }
}
