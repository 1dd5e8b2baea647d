//! The services of a sign-up, run in-process on free ports against the real components, with
//! the gateway in front: each test has its own databases and exchange.

use std::{net::SocketAddr, time::Duration};

use evidentia_common::{
    config::{Configuration as _, SecretString, ServiceConfig},
    service::{Service, test_config},
    testing::{self, access_code},
};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub struct Stack {
    pub base: String,
    pub http: reqwest::Client,
    pub shutdown: CancellationToken,
    pub accounts_db: SecretString,
    pub payments_db: SecretString,
    pub referrals_db: SecretString,
    pub evidence_db: SecretString,
    pub sharing_db: SecretString,
    /// The futuregram scheduler's clock: tests move it forward.
    pub clock: sharing::state::Clock,
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn listener() -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    (listener, addr)
}

fn spawn<S: Service + 'static>(
    config: S::Config,
    listener: TcpListener,
    shutdown: &CancellationToken,
) {
    let shutdown = shutdown.clone();
    tokio::spawn(async move {
        if let Err(err) = S::run(config, listener, shutdown).await {
            panic!("{} failed: {err:?}", S::NAME);
        }
    });
}

/// Shares one exchange among the services of the stack.
async fn service_config(
    name: &'static str,
    exchange: &evidentia_common::config::AmqpConfig,
) -> ServiceConfig {
    let mut config = test_config(name).await;
    config.amqp = exchange.clone();
    config
}

impl Stack {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// Starts the stack with the evidence service's configuration adjusted by `evidence`.
    pub async fn start_with(evidence: impl FnOnce(&mut evidence::Config)) -> Self {
        let stack = Self::start_unready(evidence).await;
        stack.until_ok("health/", "every service healthy").await;
        stack
    }

    /// Waits until `path` answers a success.
    async fn until_ok(&self, path: &str, what: &str) {
        let http = self.http.clone();
        let url = self.url(path);
        testing::eventually(what, Duration::from_secs(30), || {
            let http = http.clone();
            let url = url.clone();
            async move {
                let response = http.get(&url).send().await.ok()?;
                response.status().is_success().then_some(())
            }
        })
        .await;
    }

    /// Starts the stack and waits only for the gateway to answer (its readiness is the test's
    /// question).
    pub async fn start_unready(evidence: impl FnOnce(&mut evidence::Config)) -> Self {
        let shutdown = CancellationToken::new();
        let amqp = testing::amqp_config();

        let mut accounts_config = accounts::config::Config::from_env().expect("accounts config");
        accounts_config.service = service_config("accounts", &amqp).await;
        accounts_config.limits.code_sends_per_window = 100;
        // The ceiling on all messages is shared by every test run on this Redis.
        accounts_config.limits.code_sends_total = u32::MAX;
        accounts_config.limits.contact_messages_per_hour = 1000;
        accounts_config.sms = evidentia_common::sms::SmsConfig::Files {
            dir: sms_dir().display().to_string(),
        };
        accounts_config.purge_interval_seconds = 1;
        let accounts_db = accounts_config.service.database_url.clone();
        let (accounts_listener, accounts_addr) = listener().await;
        spawn::<accounts::AccountsService>(accounts_config, accounts_listener, &shutdown);

        let mut payments_config = payments::config::Config::from_env().expect("payments config");
        payments_config.service = service_config("payments", &amqp).await;
        let payments_db = payments_config.service.database_url.clone();
        let (payments_listener, payments_addr) = listener().await;
        spawn::<payments::PaymentsService>(payments_config, payments_listener, &shutdown);

        let mut referrals_config = referrals::config::Config::from_env().expect("referrals config");
        referrals_config.service = service_config("referrals", &amqp).await;
        referrals_config.sms = evidentia_common::sms::SmsConfig::Files {
            dir: sms_dir().display().to_string(),
        };
        referrals_config.limits.checks_per_client = 100_000;
        let referrals_db = referrals_config.service.database_url.clone();
        let (referrals_listener, referrals_addr) = listener().await;
        spawn::<referrals::ReferralsService>(referrals_config, referrals_listener, &shutdown);

        let mut evidence_config = evidence::config::Config::from_env().expect("evidence config");
        evidence_config.service = service_config("evidence", &amqp).await;
        evidence_config.accounts_url = format!("http://{accounts_addr}");
        let evidence_db = evidence_config.service.database_url.clone();
        evidence(&mut evidence_config);
        let (evidence_listener, evidence_addr) = listener().await;
        spawn::<evidence::EvidenceService>(evidence_config, evidence_listener, &shutdown);

        let mut sharing_config = sharing::config::Config::from_env().expect("sharing config");
        sharing_config.service = service_config("sharing", &amqp).await;
        sharing_config.evidence_url = format!("http://{evidence_addr}");
        sharing_config.payments_url = format!("http://{payments_addr}");
        sharing_config.sms = evidentia_common::sms::SmsConfig::Files {
            dir: sms_dir().display().to_string(),
        };
        // Every test of a run is one client address.
        sharing_config.settings.code_sends_per_client = 100_000;
        sharing_config.settings.verifications_per_client = 100_000;
        // A reader counts as away after two seconds, so the chat notice comes within a test.
        sharing_config.settings.chat_away_after = Duration::from_secs(2);
        sharing_config.settings.chat_notify_every = Duration::from_millis(500);
        // The futuregram scheduler looks for work often; its clock is the test's.
        sharing_config.settings.futuregram_tick = Duration::from_millis(200);
        sharing_config.settings.futuregram_view_ttl = Duration::from_secs(7 * 86_400);
        let clock = sharing::state::Clock::system();
        sharing_config.settings.clock = clock.clone();
        let sharing_db = sharing_config.service.database_url.clone();
        let (sharing_listener, sharing_addr) = listener().await;
        spawn::<sharing::SharingService>(sharing_config, sharing_listener, &shutdown);

        let mut gateway_config = gateway::config::Config::from_env().expect("gateway config");
        gateway_config.accounts_url = format!("http://{accounts_addr}");
        gateway_config.payments_url = format!("http://{payments_addr}");
        gateway_config.referrals_url = format!("http://{referrals_addr}");
        gateway_config.evidence_url = format!("http://{evidence_addr}");
        gateway_config.sharing_url = format!("http://{sharing_addr}");
        gateway_config.web_dist_dir = std::env::temp_dir()
            .join("evidentia-no-web")
            .display()
            .to_string();
        let (gateway_listener, gateway_addr) = listener().await;
        let token = shutdown.clone();
        tokio::spawn(async move {
            gateway::startup::run(gateway_config, gateway_listener, token).await
        });

        let stack = Self {
            base: format!("http://{gateway_addr}/api"),
            http: reqwest::Client::new(),
            shutdown,
            accounts_db,
            payments_db,
            referrals_db,
            evidence_db,
            sharing_db,
            clock,
        };
        stack
            .until_ok("health/live/", "the gateway answering")
            .await;
        stack
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        let response = self.http.get(self.url(path)).send().await.expect("request");
        read(response).await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base, path)
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    pub async fn get_auth(&self, path: &str, access: &str) -> (u16, Value) {
        let response = self
            .http
            .get(self.url(path))
            .bearer_auth(access)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    pub async fn send_auth(
        &self,
        method: reqwest::Method,
        path: &str,
        access: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self
            .http
            .request(method, self.url(path))
            .bearer_auth(access);
        if let Some(body) = body {
            request = request.json(&body);
        }
        read(request.send().await.expect("request")).await
    }

    pub async fn post_auth(&self, path: &str, access: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(self.url(path))
            .bearer_auth(access)
            .json(&body)
            .send()
            .await
            .expect("request");
        read(response).await
    }

    /// Signs up a new individual through the API, reading the code from the mail sink; returns
    /// (username, e-mail, access, refresh).
    pub async fn sign_up(&self) -> SignedUp {
        self.sign_up_with(json!({})).await
    }

    /// Signs up an organization's owner.
    pub async fn sign_up_organization(&self, name: &str) -> SignedUp {
        self.sign_up_with(json!({ "organization_name": name }))
            .await
    }

    /// A confirmed e-mail's verification token (the sign-up code flow).
    pub async fn verify_email(&self, email: &str) -> String {
        let (status, _) = self
            .post(
                "accounts/confirmation-code/send/",
                json!({ "email": email, "purpose": "sign_up" }),
            )
            .await;
        assert_eq!(status, 200);
        let code = read_code(email).await;
        let (status, verified) = self
            .post(
                "accounts/confirmation-code/verify/",
                json!({ "email": email, "code": code }),
            )
            .await;
        assert_eq!(status, 200, "{verified}");
        verified["verification_token"]
            .as_str()
            .expect("token")
            .to_owned()
    }

    /// Signs up with `extra` fields in the body (a name, a referral code).
    pub async fn sign_up_with(&self, extra: Value) -> SignedUp {
        let unique = uuid::Uuid::new_v4().simple().to_string();
        let email = format!("gw-{}@example.com", &unique[..12]);
        let username = format!("u{}", &unique[..12]);
        let national: String = unique
            .chars()
            .filter(char::is_ascii_digit)
            .chain("0123456789".chars())
            .take(10)
            .collect();
        let verification_token = self.verify_email(&email).await;
        let mut body = json!({
            "username": username,
            "email": email,
            "password": "Secret12#",
            "verification_token": verification_token,
            "phone_number": { "country_code": "+44", "national_number": national },
        });
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let (status, tokens) = self.post("accounts/create/", body).await;
        assert_eq!(status, 201, "{tokens}");
        SignedUp {
            phone: format!("+44{national}"),
            national,
            username,
            email,
            access: tokens["access"].as_str().expect("access").to_owned(),
            refresh: tokens["refresh"].as_str().expect("refresh").to_owned(),
        }
    }
}

pub struct SignedUp {
    pub username: String,
    /// E.164, as the SMS sink names it.
    pub phone: String,
    /// The national number (country code +44).
    pub national: String,
    pub email: String,
    pub access: String,
    pub refresh: String,
}

/// Sends `request`: its status and body.
pub async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    read(request.send().await.expect("request")).await
}

async fn read(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.expect("body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, value)
}

pub use evidentia_common::testing::{
    DECLINED_OFF_SESSION, OK_CARD, code_in, jpeg, payment_method, read_message, sha256, sms_dir,
    stripe,
};

/// The 6-digit code of the newest confirmation e-mail to `email`.
pub async fn read_code(email: &str) -> String {
    code_in(&read_message(email, "confirmation code is ", &[]).await)
}

/// Steps 3 to 6 of the add-card flow (spec §4) for the user of `access`: answers the
/// registration and whether the browser's confirmation succeeded.
pub async fn add_card(stack: &Stack, access: &str, number: &str) -> (Value, bool) {
    let (status, body) = stack
        .post_auth("payments/stripe-customer/create/", access, json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let customer = body["stripe_customer_id"].as_str().unwrap().to_owned();
    let pm = payment_method(number).await;
    let (status, registered) = stack
        .post_auth(
            "payments/payment-method/register/",
            access,
            json!({ "payment_method_id": pm }),
        )
        .await;
    assert_eq!(status, 200, "{registered}");
    let (status, setup) = stack
        .post_auth(
            "payments/stripe-setup-intent/create/",
            access,
            json!({ "stripe_customer_id": customer }),
        )
        .await;
    assert_eq!(status, 200, "{setup}");
    let secret = setup["client_secret"].as_str().unwrap();
    (registered, testing::confirm_setup(secret, &pm).await)
}

pub async fn folder(stack: &Stack, access: &str, name: &str) -> String {
    let (status, folder) = stack
        .post_auth("evidence/folders/create/", access, json!({ "name": name }))
        .await;
    assert_eq!(status, 201, "{folder}");
    folder["id"].as_str().expect("id").to_owned()
}

/// Posts the file with the presigned POST's fields, as a browser form would.
pub async fn post_form(upload: &Value, bytes: Vec<u8>, mime: &str) -> reqwest::StatusCode {
    let mut form = reqwest::multipart::Form::new();
    for (key, value) in upload["fields"].as_object().expect("fields") {
        form = form.text(key.clone(), value.as_str().expect("field").to_owned());
    }
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name("capture")
        .mime_str(mime)
        .expect("mime");
    form = form.part("file", part);
    reqwest::Client::new()
        .post(upload["url"].as_str().expect("url"))
        .multipart(form)
        .send()
        .await
        .expect("post to S3")
        .status()
}

pub async fn status_of(stack: &Stack, access: &str, item: &str, want: &str) -> Value {
    testing::eventually(
        &format!("item status {want}"),
        Duration::from_secs(20),
        || async {
            let (_, item) = stack
                .get_auth(&format!("evidence/items/{item}/"), access)
                .await;
            (item["status"] == want).then_some(item)
        },
    )
    .await
}

/// The fields of `item` JSON for a capture of `bytes`, plus `extra`.
pub fn capture(bytes: &[u8], mime: &str, extra: Value) -> Value {
    let mut body = json!({
        "name": "Front left",
        "media_type": mime.split('/').next().expect("media"),
        "mime_type": mime,
        "file_size": bytes.len(),
        "sha256": sha256(bytes),
    });
    for (key, value) in extra.as_object().expect("object") {
        body[key] = value.clone();
    }
    body
}

/// Uploads `bytes` with the answer of a create or retake, finishes, and waits for `verified`.
pub async fn upload_and_verify(
    stack: &Stack,
    access: &str,
    created: &Value,
    bytes: Vec<u8>,
) -> Value {
    let item = created["item"]["id"].as_str().expect("id").to_owned();
    let mime = created["item"]["mime_type"]
        .as_str()
        .expect("mime")
        .to_owned();
    assert!(
        post_form(&created["upload"], bytes, &mime)
            .await
            .is_success()
    );
    let (status, finished) = stack
        .post_auth(
            &format!("evidence/items/{item}/upload/finish/"),
            access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{finished}");
    status_of(stack, access, &item, "verified").await
}

pub async fn fetch(url: &Value) -> (u16, Vec<u8>) {
    let response = reqwest::get(url.as_str().expect("url")).await.expect("get");
    let status = response.status().as_u16();
    (status, response.bytes().await.expect("body").to_vec())
}

// --- sharing: a share bought, and a recipient's way in ---

pub async fn upload(
    stack: &Stack,
    access: &str,
    folder: &str,
    bytes: Vec<u8>,
    mime: &str,
) -> Value {
    let (status, created) = stack
        .post_auth(
            &format!("evidence/folders/{folder}/items/create/"),
            access,
            capture(
                &bytes,
                mime,
                json!({ "captured_at": "2026-01-15T10:00:00Z", "latitude": 52.37, "longitude": 4.89 }),
            ),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    upload_and_verify(stack, access, &created, bytes).await
}

pub async fn with_default_card(stack: &Stack, user: &SignedUp, number: &str) {
    let (registered, confirmed) = add_card(stack, &user.access, number).await;
    assert!(confirmed, "{registered}");
    let (status, cards) = stack
        .get_auth("payments/payment-methods/get/", &user.access)
        .await;
    assert_eq!(status, 200, "{cards}");
    let id = cards["payment_methods"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = stack
        .post_auth(
            "payments/payment-method/set-default/",
            &user.access,
            json!({ "payment_method_id": id }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

pub async fn share(
    stack: &Stack,
    access: &str,
    folder: &str,
    key: &str,
    body: &Value,
) -> (u16, Value) {
    send(
        stack
            .http
            .post(stack.url(&format!("sharing/folder/{folder}/share/")))
            .bearer_auth(access)
            .header("Idempotency-Key", key)
            .json(body),
    )
    .await
}

pub async fn with_token(stack: &Stack, path: &str, token: &str) -> (u16, Value) {
    send(
        stack
            .http
            .get(stack.url(path))
            .header("X-Folder-Token", token),
    )
    .await
}

/// Sends a code to the recipient and reads it from their mailbox.
pub async fn code_for(
    stack: &Stack,
    to: &str,
    t1: &str,
    t2: &str,
    seen: &[String],
) -> (String, String, String) {
    let (status, sent) = stack
        .post("sharing/code/send/", json!({ "t1": t1, "t2": t2 }))
        .await;
    assert_eq!(status, 200, "{sent}");
    let (code, message) = access_code(to, seen).await;
    (sent["code_id"].as_str().unwrap().to_owned(), code, message)
}
