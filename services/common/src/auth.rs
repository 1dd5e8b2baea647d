//! The access token shared by accounts (which issues it) and the gateway (which verifies it):
//! a short-lived HS256 JWT whose subject is the user id.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    iat: i64,
    exp: i64,
    jti: String,
    token_type: String,
}

const ACCESS: &str = "access";

/// Issues an access token for `user_id` that expires after `ttl_seconds`.
pub fn issue_access(
    secret: &SecretString,
    user_id: Uuid,
    ttl_seconds: i64,
) -> anyhow::Result<String> {
    let now = chrono::Utc::now().timestamp();
    let claims = Claims {
        sub: user_id.to_string(),
        iat: now,
        exp: now + ttl_seconds,
        jti: Uuid::now_v7().to_string(),
        token_type: ACCESS.to_owned(),
    };
    Ok(jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(secret.expose_secret().as_bytes()),
    )?)
}

/// The user of a valid, unexpired access token.
pub fn verify_access(secret: &SecretString, token: &str) -> Option<Uuid> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.leeway = 0;
    validation.set_required_spec_claims(&["exp", "sub"]);
    let data = jsonwebtoken::decode::<Claims>(
        token,
        &DecodingKey::from_secret(secret.expose_secret().as_bytes()),
        &validation,
    )
    .ok()?;
    if data.claims.token_type != ACCESS {
        return None;
    }
    Uuid::parse_str(&data.claims.sub).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(s: &str) -> SecretString {
        SecretString::from(s.to_owned())
    }

    #[test]
    fn a_fresh_token_names_its_user() {
        let user = Uuid::now_v7();
        let token = issue_access(&secret("s1"), user, 60).unwrap();
        assert_eq!(verify_access(&secret("s1"), &token), Some(user));
    }

    #[test]
    fn expired_forged_and_garbage_tokens_are_rejected() {
        let user = Uuid::now_v7();
        let expired = issue_access(&secret("s1"), user, -5).unwrap();
        assert_eq!(verify_access(&secret("s1"), &expired), None);
        let other_key = issue_access(&secret("s2"), user, 60).unwrap();
        assert_eq!(verify_access(&secret("s1"), &other_key), None);
        assert_eq!(verify_access(&secret("s1"), "not.a.jwt"), None);
    }
}
