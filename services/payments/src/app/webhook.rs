//! Stripe webhooks: the signature is checked (HMAC-SHA256 of `<t>.<payload>` with the endpoint
//! secret, within 5 minutes), and each event is processed once by its id, in the same transaction
//! as what it changes.

use chrono::Utc;
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use sqlx::PgPool;

use crate::{
    app::charges,
    error::{CARD_DECLINED, PaymentsError},
    store::stripe_events,
};

const TOLERANCE_SECONDS: i64 = 300;

/// Checks a `Stripe-Signature` header (`t=<unix>,v1=<hex>[,v1=...]`) against the payload.
pub fn verify(payload: &[u8], header: &str, secret: &str, now: i64) -> Result<(), PaymentsError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", s)) => signatures.push(s.to_owned()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(PaymentsError::BadSignature)?;
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(PaymentsError::BadSignature);
    }
    for signature in signatures {
        let Ok(expected) = hex::decode(&signature) else {
            continue;
        };
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes())
            .map_err(|e| anyhow::anyhow!("webhook secret: {e}"))?;
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        if mac.verify_slice(&expected).is_ok() {
            return Ok(());
        }
    }
    Err(PaymentsError::BadSignature)
}

#[derive(Deserialize)]
struct Event {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: EventData,
}

#[derive(Deserialize)]
struct EventData {
    object: EventObject,
}

#[derive(Deserialize)]
struct EventObject {
    id: Option<String>,
    last_payment_error: Option<PaymentError>,
}

#[derive(Deserialize)]
struct PaymentError {
    message: Option<String>,
}

/// Verifies and processes one delivery. A replayed event is acknowledged and changes nothing.
#[tracing::instrument(skip_all)]
pub async fn handle(
    pool: &PgPool,
    secret: &str,
    payload: &[u8],
    signature: &str,
) -> Result<(), PaymentsError> {
    verify(payload, signature, secret, Utc::now().timestamp())?;
    let event: Event = serde_json::from_slice(payload)
        .map_err(|_| PaymentsError::invalid("payload", "Not a Stripe event."))?;
    let mut tx = pool.begin().await?;
    if !stripe_events::insert_first(&mut tx, &event.id, &event.kind).await? {
        tracing::info!(stripe.event = %event.id, "webhook event already processed");
        return Ok(());
    }
    let object_id = event.data.object.id.unwrap_or_default();
    match event.kind.as_str() {
        "payment_intent.succeeded" => {
            let credited = charges::credit_intent(&mut tx, &object_id).await?;
            tracing::info!(stripe.event = %event.id, stripe.payment_intent = %object_id, credited, "payment succeeded");
        }
        "payment_intent.payment_failed" => {
            let message = event
                .data
                .object
                .last_payment_error
                .and_then(|e| e.message)
                .unwrap_or_else(|| CARD_DECLINED.to_owned());
            charges::fail_intent(&mut tx, &object_id, &message).await?;
        }
        other => tracing::debug!(stripe.event.type = other, "webhook event not used"),
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(payload: &[u8], secret: &str, t: i64) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(payload);
        format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn a_signature_made_with_the_secret_is_accepted() {
        let header = sign(b"{}", "whsec_x", 1000);
        assert!(verify(b"{}", &header, "whsec_x", 1010).is_ok());
    }

    #[test]
    fn another_secret_a_changed_payload_or_an_old_timestamp_is_refused() {
        let header = sign(b"{}", "whsec_x", 1000);
        assert!(verify(b"{}", &header, "whsec_y", 1000).is_err());
        assert!(verify(b"{ }", &header, "whsec_x", 1000).is_err());
        assert!(verify(b"{}", &header, "whsec_x", 1000 + 301).is_err());
        assert!(verify(b"{}", "v1=00", "whsec_x", 1000).is_err());
    }
}
