//! Stripe, behind one trait with one real implementation (async-stripe's client). Locally the same
//! client talks to localstripe; production points it at Stripe by configuration alone.
//!
//! Requests are built with async-stripe's `RequestBuilder` (form bodies, idempotency keys, retries
//! and the base URL come from its client) and answers are read into the few fields we use, so a
//! field Stripe adds or the emulator lacks cannot break a payment.

use async_trait::async_trait;
use secrecy::ExposeSecret;
use serde::{Deserialize, de::DeserializeOwned};
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError};
use stripe_client_core::{RequestBuilder, StripeMethod};
use uuid::Uuid;

use crate::config::Config;

/// A card as Stripe describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardDetails {
    pub id: String,
    pub customer: Option<String>,
    pub brand: String,
    pub last4: String,
    pub fingerprint: String,
    pub exp_month: i32,
    pub exp_year: i32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intent {
    pub id: String,
    pub client_secret: String,
    /// Stripe's status: `succeeded`, `requires_payment_method`, `requires_confirmation`, ...
    pub status: String,
    pub payment_method: Option<String>,
}

/// What a Stripe call can end in, beyond success.
#[derive(Debug, thiserror::Error)]
pub enum StripeFailure {
    /// The card was refused (declined, insufficient funds, authentication needed off-session).
    #[error("card declined: {message}")]
    Declined { code: String, message: String },
    /// Stripe refused the request itself (an unknown or foreign payment method, ...).
    #[error("stripe refused the request: {message}")]
    Rejected { message: String },
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// One payment to make off-session (the user is not there to confirm it).
#[derive(Debug, Clone)]
pub struct OffSessionCharge<'a> {
    pub customer: &'a str,
    pub payment_method: &'a str,
    pub amount_cents: i64,
    pub idempotency_key: &'a str,
    pub metadata: &'a [(&'a str, String)],
    pub description: &'a str,
}

#[async_trait]
pub trait Stripe: Send + Sync + 'static {
    /// Creates the customer of `user_id`; the idempotency key makes a retry return the same one.
    async fn create_customer(
        &self,
        user_id: Uuid,
        email: &str,
        name: &str,
    ) -> anyhow::Result<String>;
    async fn update_customer_name(&self, customer: &str, name: &str) -> anyhow::Result<()>;
    async fn retrieve_payment_method(&self, id: &str) -> Result<CardDetails, StripeFailure>;
    async fn attach_payment_method(&self, id: &str, customer: &str) -> Result<(), StripeFailure>;
    async fn detach_payment_method(&self, id: &str) -> Result<(), StripeFailure>;
    async fn set_default_payment_method(
        &self,
        customer: &str,
        payment_method: &str,
    ) -> anyhow::Result<()>;
    /// A SetupIntent for the customer; the browser confirms it with the card it created.
    async fn create_setup_intent(
        &self,
        customer: &str,
        idempotency_key: &str,
    ) -> Result<Intent, StripeFailure>;
    async fn retrieve_setup_intent(&self, id: &str) -> Result<Intent, StripeFailure>;
    /// A PaymentIntent for the browser to confirm (`confirmCardPayment`).
    async fn create_payment_intent(
        &self,
        customer: &str,
        payment_method: &str,
        amount_cents: i64,
        metadata: &[(&str, String)],
        idempotency_key: &str,
    ) -> Result<Intent, StripeFailure>;
    async fn retrieve_payment_intent(&self, id: &str) -> Result<Intent, StripeFailure>;
    /// Creates and confirms a PaymentIntent off-session; a refused card is `Declined`.
    async fn charge_off_session(
        &self,
        charge: OffSessionCharge<'_>,
    ) -> Result<Intent, StripeFailure>;
}

pub struct StripeApi {
    client: Client,
}

impl StripeApi {
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let mut builder = ClientBuilder::new(config.stripe_secret_key.expose_secret());
        if !config.stripe_api_base.is_empty() {
            builder = builder.url(config.stripe_api_base.clone());
        }
        Ok(Self {
            client: builder.build()?,
        })
    }

    /// A GET of one Stripe object.
    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, StripeFailure> {
        self.call(StripeMethod::Get, path, &[], None).await
    }

    /// A POST of a form, with an idempotency key where a retry must not act twice.
    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(String, String)],
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeFailure> {
        self.call(StripeMethod::Post, path, form, idempotency_key)
            .await
    }

    async fn call<T: DeserializeOwned>(
        &self,
        method: StripeMethod,
        path: &str,
        form: &[(String, String)],
        idempotency_key: Option<&str>,
    ) -> Result<T, StripeFailure> {
        let mut request = RequestBuilder::new(method, path);
        if !form.is_empty() {
            request.body = Some(encode_form(form));
        }
        let mut request = request.customize::<miniserde::json::Value>();
        if let Some(key) = idempotency_key {
            let key = IdempotencyKey::new(key)
                .map_err(|e| anyhow::anyhow!("idempotency key {key:?}: {e:?}"))?;
            request = request.request_strategy(RequestStrategy::Idempotent(key));
        }
        let value = request.send(&self.client).await.map_err(failure)?;
        let text = miniserde::json::to_string(&value);
        serde_json::from_str(&text)
            .map_err(|e| StripeFailure::Other(anyhow::anyhow!("reading {path}: {e}")))
    }
}

fn failure(err: StripeError) -> StripeFailure {
    match err {
        StripeError::Stripe(api, status) => {
            let message = api
                .message
                .clone()
                .unwrap_or_else(|| "Your card was declined.".to_owned());
            let code = api
                .code
                .as_ref()
                .map(|c| c.as_str().to_owned())
                .unwrap_or_default();
            let card_error = matches!(api.type_, stripe::ApiErrorsType::CardError);
            if card_error || code == "card_declined" {
                StripeFailure::Declined {
                    code: api.decline_code.clone().unwrap_or(code),
                    message,
                }
            } else if (400..500).contains(&status) {
                StripeFailure::Rejected { message }
            } else {
                StripeFailure::Other(anyhow::anyhow!("stripe answered {status}: {message}"))
            }
        }
        other => StripeFailure::Other(other.into()),
    }
}

/// `application/x-www-form-urlencoded`, in the order given (Stripe's bracketed keys included).
fn encode_form(form: &[(String, String)]) -> String {
    fn encode(out: &mut String, text: &str) {
        for byte in text.bytes() {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
                out.push(char::from(byte));
            } else {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    let mut out = String::new();
    for (i, (key, value)) in form.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode(&mut out, key);
        out.push('=');
        encode(&mut out, value);
    }
    out
}

/// One path segment, percent-encoded whatever it holds: the ids reaching here were parsed at the
/// edge or came from Stripe, and encoding them anyway keeps any other text (`?`, `/`, `..`, CR/LF)
/// inside its segment instead of changing the request.
fn segment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn field(name: &str, value: impl ToString) -> (String, String) {
    (name.to_owned(), value.to_string())
}

fn metadata_fields(metadata: &[(&str, String)]) -> Vec<(String, String)> {
    metadata
        .iter()
        .map(|(k, v)| (format!("metadata[{k}]"), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn form_bodies_keep_brackets_and_escape_the_rest() {
        let form = vec![
            ("metadata[user_id]".to_owned(), "a b&c".to_owned()),
            ("amount".to_owned(), "500".to_owned()),
        ];
        assert_eq!(
            super::encode_form(&form),
            "metadata%5Buser_id%5D=a%20b%26c&amount=500"
        );
    }

    #[test]
    fn path_segments_cannot_carry_a_query_a_slash_or_a_line_break() {
        assert_eq!(super::segment("pm_1AbC"), "pm_1AbC");
        assert_eq!(
            super::segment("pm_X?expand[]=customer"),
            "pm_X%3Fexpand%5B%5D%3Dcustomer"
        );
        assert_eq!(super::segment("../x"), "%2E%2E%2Fx");
        assert_eq!(super::segment("a\r\nb"), "a%0D%0Ab");
        assert_eq!(super::segment("é"), "%C3%A9");
    }
}

#[derive(Deserialize)]
struct IdOnly {
    id: String,
}

#[derive(Deserialize)]
struct PaymentMethodObject {
    id: String,
    customer: Option<String>,
    card: Option<CardObject>,
}

#[derive(Deserialize)]
struct CardObject {
    brand: Option<String>,
    last4: Option<String>,
    fingerprint: Option<String>,
    exp_month: Option<serde_json::Value>,
    exp_year: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct IntentObject {
    id: String,
    client_secret: Option<String>,
    status: String,
    payment_method: Option<String>,
    last_payment_error: Option<ErrorObject>,
}

#[derive(Deserialize)]
struct ErrorObject {
    code: Option<String>,
    decline_code: Option<String>,
    message: Option<String>,
}

fn number(value: Option<&serde_json::Value>) -> i32 {
    match value {
        Some(serde_json::Value::Number(n)) => n.as_i64().unwrap_or(0) as i32,
        Some(serde_json::Value::String(s)) => s.parse().unwrap_or(0),
        _ => 0,
    }
}

impl From<IntentObject> for Intent {
    fn from(o: IntentObject) -> Self {
        Self {
            id: o.id,
            client_secret: o.client_secret.unwrap_or_default(),
            status: o.status,
            payment_method: o.payment_method,
        }
    }
}

#[async_trait]
impl Stripe for StripeApi {
    #[tracing::instrument(skip_all, fields(user.id = %user_id))]
    async fn create_customer(
        &self,
        user_id: Uuid,
        email: &str,
        name: &str,
    ) -> anyhow::Result<String> {
        let mut form = vec![field("email", email), field("metadata[user_id]", user_id)];
        if !name.trim().is_empty() {
            form.push(field("name", name.trim()));
        }
        let key = format!("customer-{user_id}");
        let customer: IdOnly = self
            .post("/customers", &form, Some(&key))
            .await
            .map_err(anyhow::Error::from)?;
        Ok(customer.id)
    }

    #[tracing::instrument(skip_all, fields(stripe.customer = customer))]
    async fn update_customer_name(&self, customer: &str, name: &str) -> anyhow::Result<()> {
        let _: IdOnly = self
            .post(
                &format!("/customers/{}", segment(customer)),
                &[field("name", name)],
                None,
            )
            .await?;
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(stripe.payment_method = id))]
    async fn retrieve_payment_method(&self, id: &str) -> Result<CardDetails, StripeFailure> {
        let pm: PaymentMethodObject = self
            .get(&format!("/payment_methods/{}", segment(id)))
            .await?;
        let card = pm.card.ok_or_else(|| StripeFailure::Rejected {
            message: "Only cards can be added.".to_owned(),
        })?;
        Ok(CardDetails {
            id: pm.id,
            customer: pm.customer,
            brand: card.brand.unwrap_or_else(|| "unknown".to_owned()),
            last4: card.last4.unwrap_or_default(),
            fingerprint: card.fingerprint.unwrap_or_default(),
            exp_month: number(card.exp_month.as_ref()),
            exp_year: number(card.exp_year.as_ref()),
        })
    }

    #[tracing::instrument(skip_all, fields(stripe.payment_method = id))]
    async fn attach_payment_method(&self, id: &str, customer: &str) -> Result<(), StripeFailure> {
        let _: IdOnly = self
            .post(
                &format!("/payment_methods/{}/attach", segment(id)),
                &[field("customer", customer)],
                Some(&format!("attach-{id}")),
            )
            .await?;
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(stripe.payment_method = id))]
    async fn detach_payment_method(&self, id: &str) -> Result<(), StripeFailure> {
        let _: IdOnly = self
            .post(
                &format!("/payment_methods/{}/detach", segment(id)),
                &[],
                None,
            )
            .await?;
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(stripe.customer = customer))]
    async fn set_default_payment_method(
        &self,
        customer: &str,
        payment_method: &str,
    ) -> anyhow::Result<()> {
        let _: IdOnly = self
            .post(
                &format!("/customers/{}", segment(customer)),
                &[field(
                    "invoice_settings[default_payment_method]",
                    payment_method,
                )],
                None,
            )
            .await?;
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(stripe.customer = customer))]
    async fn create_setup_intent(
        &self,
        customer: &str,
        idempotency_key: &str,
    ) -> Result<Intent, StripeFailure> {
        let form = vec![
            field("customer", customer),
            field("usage", "off_session"),
            field("payment_method_types[]", "card"),
        ];
        let intent: IntentObject = self
            .post("/setup_intents", &form, Some(idempotency_key))
            .await?;
        Ok(intent.into())
    }

    #[tracing::instrument(skip_all, fields(stripe.setup_intent = id))]
    async fn retrieve_setup_intent(&self, id: &str) -> Result<Intent, StripeFailure> {
        let intent: IntentObject = self.get(&format!("/setup_intents/{}", segment(id))).await?;
        Ok(intent.into())
    }

    #[tracing::instrument(skip_all, fields(stripe.customer = customer, amount = amount_cents))]
    async fn create_payment_intent(
        &self,
        customer: &str,
        payment_method: &str,
        amount_cents: i64,
        metadata: &[(&str, String)],
        idempotency_key: &str,
    ) -> Result<Intent, StripeFailure> {
        let mut form = vec![
            field("amount", amount_cents),
            field("currency", "usd"),
            field("customer", customer),
            field("payment_method", payment_method),
            field("payment_method_types[]", "card"),
        ];
        form.extend(metadata_fields(metadata));
        let intent: IntentObject = self
            .post("/payment_intents", &form, Some(idempotency_key))
            .await?;
        Ok(intent.into())
    }

    #[tracing::instrument(skip_all, fields(stripe.payment_intent = id))]
    async fn retrieve_payment_intent(&self, id: &str) -> Result<Intent, StripeFailure> {
        let intent: IntentObject = self
            .get(&format!("/payment_intents/{}", segment(id)))
            .await?;
        Ok(intent.into())
    }

    #[tracing::instrument(skip_all, fields(stripe.customer = charge.customer, amount = charge.amount_cents))]
    async fn charge_off_session(
        &self,
        charge: OffSessionCharge<'_>,
    ) -> Result<Intent, StripeFailure> {
        let mut form = vec![
            field("amount", charge.amount_cents),
            field("currency", "usd"),
            field("customer", charge.customer),
            field("payment_method", charge.payment_method),
            field("payment_method_types[]", "card"),
            field("off_session", "true"),
            field("confirm", "true"),
            // Stripe has `description`; the emulator refuses it, so it travels as metadata.
            field("metadata[description]", charge.description),
        ];
        form.extend(metadata_fields(charge.metadata));
        let intent: IntentObject = self
            .post("/payment_intents", &form, Some(charge.idempotency_key))
            .await?;
        if intent.status == "succeeded" {
            return Ok(intent.into());
        }
        // Stripe answers a refused off-session charge with a 402 card error; an intent left
        // unpaid (authentication required, a failed attempt) is a decline to us as well.
        let error = intent.last_payment_error;
        Err(StripeFailure::Declined {
            code: error
                .as_ref()
                .and_then(|e| e.decline_code.clone().or(e.code.clone()))
                .unwrap_or_else(|| intent.status.clone()),
            message: error
                .and_then(|e| e.message)
                .unwrap_or_else(|| "Your card was declined.".to_owned()),
        })
    }
}
