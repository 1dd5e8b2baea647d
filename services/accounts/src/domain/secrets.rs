//! Secrets handed to a client (refresh, verification and password tokens) and how they are kept:
//! only as a SHA-256 hash.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// The hex SHA-256 of a secret: what the database keeps instead of it.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A random URL-safe secret of 32 bytes.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}
