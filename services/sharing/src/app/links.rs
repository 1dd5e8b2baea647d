//! The links recipients open: `/get-access-email/{delivery id}/email/{secret}` for a recipient
//! and `/unauth-shared-folder?link={delivery id}.{secret}` for a public link. The secret is an
//! HMAC of the delivery's id under the service's key, so it is never stored and cannot be
//! guessed; a revoked share or a link turned off is refused whatever the secret.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use secrecy::{ExposeSecret, SecretString};
use sha2::Sha256;
use uuid::Uuid;

#[derive(Clone)]
pub struct Links {
    key: SecretString,
    public_base_url: String,
}

impl std::fmt::Debug for Links {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Links")
            .field("public_base_url", &self.public_base_url)
            .finish_non_exhaustive()
    }
}

impl Links {
    pub fn new(key: SecretString, public_base_url: &str) -> Self {
        Self {
            key,
            public_base_url: public_base_url.trim_end_matches('/').to_owned(),
        }
    }

    fn mac(&self, purpose: &str, delivery: Uuid) -> Hmac<Sha256> {
        // HMAC takes keys of any length.
        let mut mac = Hmac::<Sha256>::new_from_slice(self.key.expose_secret().as_bytes())
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        mac.update(purpose.as_bytes());
        mac.update(b":");
        mac.update(delivery.as_bytes());
        mac
    }

    fn secret(&self, purpose: &str, delivery: Uuid) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(purpose, delivery).finalize().into_bytes())
    }

    fn holds(&self, purpose: &str, delivery: Uuid, secret: &str) -> bool {
        URL_SAFE_NO_PAD
            .decode(secret)
            .is_ok_and(|bytes| self.mac(purpose, delivery).verify_slice(&bytes).is_ok())
    }

    /// A screen of the app, by its path (`/chats/...`).
    pub fn app_url(&self, path: &str) -> String {
        format!("{}{path}", self.public_base_url)
    }

    /// The link in a recipient's message.
    pub fn recipient_url(&self, delivery: Uuid) -> String {
        format!(
            "{}/get-access-email/{delivery}/email/{}",
            self.public_base_url,
            self.secret("recipient", delivery)
        )
    }

    /// The delivery a recipient's link names, when its two parts belong together.
    pub fn recipient(&self, t1: &str, t2: &str) -> Option<Uuid> {
        let delivery = Uuid::parse_str(t1).ok()?;
        self.holds("recipient", delivery, t2).then_some(delivery)
    }

    pub fn public_token(&self, delivery: Uuid) -> String {
        format!("{delivery}.{}", self.secret("public", delivery))
    }

    pub fn public_url(&self, delivery: Uuid) -> String {
        format!(
            "{}/unauth-shared-folder?link={}",
            self.public_base_url,
            self.public_token(delivery)
        )
    }

    pub fn public(&self, token: &str) -> Option<Uuid> {
        let (id, secret) = token.split_once('.')?;
        let delivery = Uuid::parse_str(id).ok()?;
        self.holds("public", delivery, secret).then_some(delivery)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_opens_its_own_delivery_only() {
        let links = Links::new(SecretString::from("k".repeat(32)), "http://x/");
        let a = Uuid::now_v7();
        let b = Uuid::now_v7();
        let url = links.recipient_url(a);
        let secret = url.rsplit('/').next().unwrap_or_default();
        assert!(url.starts_with(&format!("http://x/get-access-email/{a}/email/")));
        assert_eq!(links.recipient(&a.to_string(), secret), Some(a));
        assert_eq!(links.recipient(&b.to_string(), secret), None);
        assert_eq!(links.recipient(&a.to_string(), "x"), None);
        // A recipient's secret is not a public link's, and the other way round.
        assert_eq!(links.public(&format!("{a}.{secret}")), None);
        assert_eq!(links.public(&links.public_token(a)), Some(a));
        let other = Links::new(SecretString::from("j".repeat(32)), "http://x");
        assert_eq!(other.public(&links.public_token(a)), None);
    }
}
