//! Test helpers (feature `testing`): a database and an exchange of the test's own on the real
//! components that `./dev infra` starts, a service spawned in the test ([`Spawned`]), a queue
//! that observes the events published ([`Observer`]), and polling with a deadline.

use std::{future::Future, time::Duration};

use lapin::{
    Channel,
    message::Delivery,
    options::{BasicGetOptions, QueueBindOptions, QueueDeclareOptions},
    types::FieldTable,
};
use secrecy::{ExposeSecret, SecretString};
use sqlx::{Connection, PgConnection};

use crate::config::AmqpConfig;

const ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// A fresh database name for `service`; older test databases (over an hour) are dropped.
pub async fn database_url(service: &str) -> SecretString {
    let admin = std::env::var("TEST_DATABASE_ADMIN_URL").unwrap_or_else(|_| ADMIN_URL.to_owned());
    let now = chrono::Utc::now().timestamp();
    let name = format!("test_{service}_{now}_{}", uuid::Uuid::new_v4().simple());
    if let Ok(mut conn) = PgConnection::connect(&admin).await {
        let stale: Vec<String> =
            sqlx::query_scalar!(r"SELECT datname FROM pg_database WHERE datname LIKE 'test\_%'")
                .fetch_all(&mut conn)
                .await
                .unwrap_or_default();
        for db in stale {
            let created = db.split('_').nth(2).and_then(|t| t.parse::<i64>().ok());
            if created.is_some_and(|t| now - t > 3600) {
                // A database's name cannot be a bind parameter; these are names we made.
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{db}\" WITH (FORCE)"))
                    .execute(&mut conn)
                    .await;
            }
        }
    }
    let base = admin
        .rsplit_once('/')
        .map_or(admin.as_str(), |(base, _)| base);
    SecretString::from(format!("{base}/{name}"))
}

/// The Redis the services under test use (`REDIS_URL`, or the local stack's).
pub fn redis_url() -> String {
    std::env::var("REDIS_URL").unwrap_or_else(|_| crate::config::DEFAULT_REDIS_URL.to_owned())
}

/// An exchange of the test's own, with queues that vanish a minute after the test.
pub fn amqp_config() -> AmqpConfig {
    let mut config = AmqpConfig::from_env().unwrap_or_else(|e| panic!("AMQP configuration: {e}"));
    config.exchange = format!("test.{}", uuid::Uuid::new_v4().simple());
    config.queue_expires_ms = Some(60_000);
    config.retry_delay_ms = 100;
    config.max_attempts = 3;
    config.transient = true;
    config
}

/// Polls `check` until it returns `Some`, or panics with `what` after `timeout`.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens a connection to a test database (for assertions on rows).
pub async fn connect(url: &SecretString) -> PgConnection {
    PgConnection::connect(url.expose_secret())
        .await
        .unwrap_or_else(|e| panic!("connect to test database: {e}"))
}

/// A service of the workspace running inside the test on a free port, with a database and an
/// exchange of its own: the one way a test spawns a service, calls it and publishes to it.
pub struct Spawned {
    /// A channel to the service's gRPC server (give it to the service's typed client).
    pub channel: tonic::transport::Channel,
    /// Where it listens: another service's configuration names it as `http://{addr}`.
    pub addr: std::net::SocketAddr,
    pub database_url: SecretString,
    pub amqp: AmqpConfig,
    shutdown: tokio_util::sync::CancellationToken,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
    publisher: lapin::Channel,
    _connection: lapin::Connection,
}

/// How long a spawned service may take to serve: migrations on a fresh database and the first
/// broker connection, slow while other tests' services start on the same two cores. How fast it
/// starts is not what a test asks.
pub const START_WAIT: Duration = Duration::from_secs(60);
/// How long an event may take to be processed, and other waits of a test.
pub const WAIT: Duration = Duration::from_secs(20);

impl Spawned {
    /// Runs `S` with `config` (whose common part is `test_config`'s, see
    /// [`crate::service::test_config`]) and waits until its health check says SERVING.
    pub async fn start<S: crate::service::Service + 'static>(config: S::Config) -> Self {
        let common = crate::config::Configuration::service(&config);
        let (database_url, amqp) = (common.database_url.clone(), common.amqp.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("bind: {e}"));
        let addr = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("address: {e}"));
        let shutdown = tokio_util::sync::CancellationToken::new();
        let token = shutdown.clone();
        let mut server = tokio::spawn(async move { S::run(config, listener, token).await });
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .unwrap_or_else(|e| panic!("endpoint: {e}"))
            .timeout(WAIT)
            .connect_lazy();
        let (connection, publisher) = crate::amqp::open_channel(&amqp, "test-publisher")
            .await
            .unwrap_or_else(|e| panic!("AMQP: {e}"));
        let health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
        let what = format!("{} to serve", S::NAME);
        let serving = eventually(&what, START_WAIT, || {
            let mut health = health.clone();
            async move {
                let answer = health
                    .check(tonic_health::pb::HealthCheckRequest::default())
                    .await
                    .ok()?;
                (answer.into_inner().status
                    == tonic_health::pb::health_check_response::ServingStatus::Serving as i32)
                    .then_some(())
            }
        });
        tokio::select! {
            () = serving => {}
            exit = &mut server => panic!("{} stopped: {exit:?}", S::NAME),
        }
        Self {
            channel,
            addr,
            database_url,
            amqp,
            shutdown,
            server,
            publisher,
            _connection: connection,
        }
    }

    /// Stops the service and checks it stopped cleanly.
    pub async fn stop(self) {
        self.shutdown.cancel();
        match self.server.await {
            Ok(Ok(())) => {}
            other => panic!("the service did not stop cleanly: {other:?}"),
        }
    }

    /// Publishes `event` as another service's outbox relay does, under `message_id`, once a queue
    /// is bound to its routing key (the service declares its queues as it starts).
    pub async fn publish<E: evidentia_proto::Event>(&self, event: &E, message_id: uuid::Uuid) {
        let payload = prost::Message::encode_to_vec(event);
        eventually("a queue bound to the event", WAIT, || async {
            let confirmation = self
                .publisher
                .basic_publish(
                    self.amqp.exchange.as_str().into(),
                    E::ROUTING_KEY.into(),
                    lapin::options::BasicPublishOptions {
                        mandatory: true,
                        ..lapin::options::BasicPublishOptions::default()
                    },
                    &payload,
                    crate::amqp::properties(
                        &message_id.to_string(),
                        E::TYPE_NAME,
                        &Default::default(),
                        0,
                    ),
                )
                .await
                .ok()?
                .await
                .ok()?;
            (confirmation.is_ack() && confirmation.take_message().is_none()).then_some(())
        })
        .await;
    }

    /// Whether the service's consumer recorded `message_id` as processed.
    pub async fn processed(&self, message_id: uuid::Uuid) -> bool {
        let mut conn = connect(&self.database_url).await;
        sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM processed_events WHERE event_id = $1) AS "exists!""#,
            message_id
        )
        .fetch_one(&mut conn)
        .await
        .unwrap_or(false)
    }

    /// Waits until the service processed `message_id`.
    pub async fn wait_processed(&self, message_id: uuid::Uuid) {
        eventually("the event to be processed", WAIT, || async {
            self.processed(message_id).await.then_some(())
        })
        .await;
    }
}

/// A status's field errors (its `BadRequest` violations) as (field, message), in order.
pub fn field_errors(status: &tonic::Status) -> Vec<(String, String)> {
    use tonic_types::StatusExt;
    status
        .get_details_bad_request()
        .map(|details| {
            details
                .field_violations
                .into_iter()
                .map(|v| (v.field, v.description))
                .collect()
        })
        .unwrap_or_default()
}

/// A status's machine-readable reason (its `ErrorInfo`), as the gateway answers it as `code`.
pub fn reason(status: &tonic::Status) -> Option<String> {
    use tonic_types::StatusExt;
    status.get_details_error_info().map(|info| info.reason)
}

/// Where the local SMTP sink writes each message (`MAIL_DIR`, or the checkout's `.dev/mail`).
pub fn mail_dir() -> std::path::PathBuf {
    std::env::var_os("MAIL_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.dev/mail"),
        std::path::PathBuf::from,
    )
}

/// Where the SMS file sink writes each message (`SMS_DIR`, or the checkout's `.dev/sms`).
pub fn sms_dir() -> std::path::PathBuf {
    std::env::var_os("SMS_DIR").map_or_else(
        || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.dev/sms"),
        std::path::PathBuf::from,
    )
}

/// The newest message to `to` (an e-mail in the SMTP sink, or an E.164 phone in the SMS sink)
/// that contains `needle` and is none of `seen`, whole, a quoted-printable e-mail decoded (a
/// link's `=` is `=3D` on the wire).
pub async fn read_message(to: &str, needle: &str, seen: &[String]) -> String {
    let dir = if to.starts_with('+') {
        sms_dir()
    } else {
        mail_dir()
    };
    let header = format!("to: {}", to.to_lowercase());
    eventually(&format!("a message to {to}"), WAIT, || async {
        let mut names: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        names.sort();
        names.iter().rev().find_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let text = text.replace("=\r\n", "").replace("\r\n", "\n");
            let text = if text.contains("Content-Transfer-Encoding: quoted-printable") {
                quoted_printable(&text)
            } else {
                text
            };
            (text.lines().any(|l| l.trim().to_lowercase() == header)
                && text.contains(needle)
                && !seen.contains(&text))
            .then_some(text)
        })
    })
    .await
}

/// Quoted-printable `=XX` escapes decoded (soft line breaks are already joined).
fn quoted_printable(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'=' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The 6-digit confirmation code in a message.
pub fn code_in(message: &str) -> String {
    const LEAD: &str = "confirmation code is ";
    let at = message
        .find(LEAD)
        .unwrap_or_else(|| panic!("no confirmation code in {message}"))
        + LEAD.len();
    message[at..at + 6].to_owned()
}

/// A real one-second MPEG-4 video made by ffmpeg's test source.
pub fn test_video() -> Vec<u8> {
    let path = std::env::temp_dir().join(format!("clip-{}.mp4", uuid::Uuid::new_v4()));
    let made = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-f", "lavfi"])
        .args(["-i", "testsrc=size=640x360:rate=10", "-t", "1"])
        .args(["-pix_fmt", "yuv420p", "-c:v", "mpeg4"])
        .args(["-movflags", "+faststart"])
        .arg(&path)
        .status()
        .unwrap_or_else(|e| panic!("ffmpeg (deploy/local/apt-packages.txt): {e}"));
    assert!(made.success(), "ffmpeg made no video");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("video: {e}"));
    let _ = std::fs::remove_file(&path);
    bytes
}

/// A `width` x `height` JPEG of a gradient; `blue` tells one photo from another.
pub fn jpeg(width: u32, height: u32, blue: u8) -> Vec<u8> {
    let photo = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, blue])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    photo
        .write_to(&mut out, image::ImageFormat::Jpeg)
        .unwrap_or_else(|e| panic!("encode a JPEG: {e}"));
    out.into_inner()
}

/// The lowercase hex SHA-256 of `bytes`, as clients announce a file.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

// --- evidence, as a device uploads to it ---

/// A capture of `bytes` in `folder` named "Front left", as a device registers it: taken in
/// Amsterdam on 2026-01-15 at 10:00 UTC, with its SHA-256.
pub fn capture(
    folder: &str,
    bytes: &[u8],
    mime: &str,
) -> evidentia_proto::evidence::v1::CreateItemRequest {
    use evidentia_proto::evidence::v1::{CreateItemRequest, MediaType};
    let media_type = match mime.split('/').next() {
        Some("image") => MediaType::Image,
        Some("video") => MediaType::Video,
        Some("audio") => MediaType::Audio,
        _ => MediaType::Unspecified,
    };
    let captured_at = chrono::DateTime::parse_from_rfc3339("2026-01-15T10:00:00Z")
        .unwrap_or_else(|e| panic!("a date: {e}"));
    CreateItemRequest {
        folder_id: folder.into(),
        name: "Front left".into(),
        media_type: media_type as i32,
        mime_type: mime.into(),
        file_size: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
        sha256: sha256(bytes),
        captured_at: Some(crate::time::timestamp(captured_at.into())),
        latitude: Some(52.37),
        longitude: Some(4.89),
        ..Default::default()
    }
}

/// Posts the file with the presigned POST's fields, as a browser form would.
pub async fn post_form(
    upload: &evidentia_proto::evidence::v1::SingleUpload,
    bytes: Vec<u8>,
    mime: &str,
) -> reqwest::StatusCode {
    let mut form = reqwest::multipart::Form::new();
    for (key, value) in &upload.fields {
        form = form.text(key.clone(), value.clone());
    }
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name("capture")
        .mime_str(mime)
        .unwrap_or_else(|e| panic!("mime {mime}: {e}"));
    form = form.part("file", part);
    reqwest::Client::new()
        .post(&upload.url)
        .multipart(form)
        .send()
        .await
        .unwrap_or_else(|e| panic!("post to S3: {e}"))
        .status()
}

/// A presigned GET, as the browser makes it: its status and body.
pub async fn fetch(url: &str) -> (u16, Vec<u8>) {
    let response = reqwest::get(url)
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .unwrap_or_else(|e| panic!("the body of {url}: {e}"));
    (status, body.to_vec())
}

// --- Stripe, as the browser's Stripe.js uses localstripe ---

/// A card that pays.
pub const OK_CARD: &str = "4242424242424242";
/// A card that sets up, then is declined when charged without the customer present.
pub const DECLINED_OFF_SESSION: &str = "4000000000000341";

/// A call to localstripe's REST API (`STRIPE_API_BASE`, `STRIPE_SECRET_KEY`): its status and
/// answer.
pub async fn stripe(
    method: reqwest::Method,
    path: &str,
    form: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    let base =
        std::env::var("STRIPE_API_BASE").unwrap_or_else(|_| "http://127.0.0.1:8420".to_owned());
    let key = std::env::var("STRIPE_SECRET_KEY").unwrap_or_else(|_| "sk_test_local".to_owned());
    let response = reqwest::Client::new()
        .request(method, format!("{base}/v1/{path}"))
        .basic_auth(key, Some(""))
        .form(form)
        .send()
        .await
        .unwrap_or_else(|e| panic!("localstripe: {e}"));
    let status = response.status().as_u16();
    (
        status,
        response.json().await.unwrap_or(serde_json::Value::Null),
    )
}

/// A card the browser would create with Stripe.js; answers its id.
pub async fn payment_method(number: &str) -> String {
    let (status, pm) = stripe(
        reqwest::Method::POST,
        "payment_methods",
        &[
            ("type", "card"),
            ("card[number]", number),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{pm}");
    pm["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a payment method id in {pm}"))
        .to_owned()
}

/// Steps 3 to 6 of the add-card flow (spec §4) for `caller`, through payments' client on
/// `channel`: a Stripe customer, a card made at Stripe, registered, set up and confirmed as the
/// browser would. Answers the registration and whether the browser's confirmation succeeded.
pub async fn add_card(
    channel: &tonic::transport::Channel,
    caller: &crate::grpc::Caller,
    (email, name): (&str, &str),
    number: &str,
) -> (evidentia_proto::payments::v1::PaymentMethod, bool) {
    use evidentia_proto::payments::v1::{
        self as pb, payments_service_client::PaymentsServiceClient,
    };
    let mut client = PaymentsServiceClient::new(channel.clone());
    let customer = client
        .ensure_stripe_customer(caller.request(pb::EnsureStripeCustomerRequest {
            email: email.to_owned(),
            name: name.to_owned(),
        }))
        .await
        .unwrap_or_else(|e| panic!("a Stripe customer: {e:?}"))
        .into_inner()
        .stripe_customer_id;
    let pm = payment_method(number).await;
    let registered = client
        .register_payment_method(caller.request(pb::RegisterPaymentMethodRequest {
            payment_method_id: pm.clone(),
        }))
        .await
        .unwrap_or_else(|e| panic!("the card registered: {e:?}"))
        .into_inner();
    let secret = client
        .create_setup_intent(caller.request(pb::CreateSetupIntentRequest {
            stripe_customer_id: customer,
        }))
        .await
        .unwrap_or_else(|e| panic!("a SetupIntent: {e:?}"))
        .into_inner()
        .client_secret;
    (registered, confirm_setup(&secret, &pm).await)
}

/// The browser's confirmation of a SetupIntent (by its client secret) with a card: whether
/// Stripe accepted it.
pub async fn confirm_setup(client_secret: &str, payment_method: &str) -> bool {
    let seti = client_secret.split("_secret_").next().unwrap_or_default();
    let (status, _) = stripe(
        reqwest::Method::POST,
        &format!("setup_intents/{seti}/confirm"),
        &[("payment_method", payment_method)],
    )
    .await;
    status == 200
}

// --- a share's recipient, reading the messages sharing sends ---

/// The two tokens (`t1`, `t2`) of the link in the newest share message to `to`.
pub async fn share_link(to: &str) -> (String, String) {
    const LEAD: &str = "get-access-email/";
    let message = read_message(to, LEAD, &[]).await;
    let at = message
        .find(LEAD)
        .unwrap_or_else(|| panic!("no link in {message}"))
        + LEAD.len();
    let rest: String = message[at..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let parts: Vec<&str> = rest.split('/').collect();
    assert_eq!(parts.get(1), Some(&"email"), "{rest}");
    (parts[0].to_owned(), parts[2].to_owned())
}

/// The newest access code sent to `to` that is in none of `seen`: the code and its message.
pub async fn access_code(to: &str, seen: &[String]) -> (String, String) {
    const LEAD: &str = "access code is ";
    let message = read_message(to, LEAD, seen).await;
    let at = message
        .find(LEAD)
        .unwrap_or_else(|| panic!("no access code in {message}"))
        + LEAD.len();
    (message[at..at + 6].to_owned(), message)
}

/// The token (letters and digits) right after `marker` in `message`.
pub fn token_in(message: &str, marker: &str) -> String {
    let at = message
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker} in {message}"))
        + marker.len();
    message[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// The token after `marker` in the newest message to `to` that holds it and is none of `seen`:
/// the token and the message.
pub async fn token_after(to: &str, marker: &str, seen: &[String]) -> (String, String) {
    let message = read_message(to, marker, seen).await;
    (token_in(&message, marker), message)
}

/// How many messages to `to` in the mail sink contain `needle`.
pub fn count_mail(to: &str, needle: &str) -> usize {
    let header = format!("to: {}", to.to_lowercase());
    std::fs::read_dir(mail_dir())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .map(|t| t.replace("=\r\n", "").replace("\r\n", "\n"))
                .filter(|t| {
                    t.lines().any(|l| l.trim().to_lowercase() == header) && t.contains(needle)
                })
                .count()
        })
        .unwrap_or(0)
}

// --- organizations at accounts, for the services that ask accounts who belongs to one ---

/// A person's values no other test uses (Redis and the mail sink are shared).
fn new_person() -> (String, String, evidentia_proto::accounts::v1::PhoneNumber) {
    let id = uuid::Uuid::new_v4();
    let tag = &id.simple().to_string()[..12];
    (
        format!("u{tag}"),
        format!("t{tag}@example.com"),
        evidentia_proto::accounts::v1::PhoneNumber {
            country_code: "+1".to_owned(),
            national_number: format!("{:010}", id.as_u128() % 10_000_000_000),
        },
    )
}

/// The user an access token of accounts' (signed with `jwt_secret`) names.
fn user_of(jwt_secret: &SecretString, access: &str) -> uuid::Uuid {
    crate::auth::verify_access(jwt_secret, access)
        .unwrap_or_else(|| panic!("a valid access token: {access}"))
        .user_id
}

/// The accounts service spawned beside a service that asks it who belongs to which organization
/// (the test crate starts it: this crate cannot name accounts), and the secret its tokens are
/// signed with.
pub struct Accounts {
    pub service: Spawned,
    pub jwt_secret: SecretString,
}

impl Accounts {
    /// Accounts' address, for another service's `accounts_url`.
    pub fn url(&self) -> String {
        format!("http://{}", self.service.addr)
    }

    /// The owner of a new organization called `name`.
    pub async fn organization(&self, name: &str) -> uuid::Uuid {
        sign_up_at_accounts(&self.service.channel, &self.jwt_secret, name).await
    }

    /// A new user of no organization.
    pub async fn individual(&self) -> uuid::Uuid {
        sign_up_at_accounts(&self.service.channel, &self.jwt_secret, "").await
    }

    /// A new participant of `owner`'s organization as `role`, invited and joined.
    pub async fn join(&self, owner: uuid::Uuid, role: &str) -> uuid::Uuid {
        join_at_accounts(&self.service.channel, &self.jwt_secret, owner, role).await
    }
}

/// Signs a new person up at accounts (`channel`) by a code mailed to a fresh address: the owner of
/// a new organization called `organization`, or an individual when it is empty. Answers their id.
async fn sign_up_at_accounts(
    channel: &tonic::transport::Channel,
    jwt_secret: &SecretString,
    organization: &str,
) -> uuid::Uuid {
    use evidentia_proto::accounts::v1::{
        self as pb, accounts_service_client::AccountsServiceClient,
    };
    let mut client = AccountsServiceClient::new(channel.clone());
    let (username, email, phone) = new_person();
    client
        .send_confirmation_code(pb::SendConfirmationCodeRequest {
            email: email.clone(),
            purpose: pb::CodePurpose::SignUp.into(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|e| panic!("a code sent to {email}: {e:?}"));
    let code = code_in(&read_message(&email, "confirmation code is ", &[]).await);
    let verification_token = client
        .verify_confirmation_code(pb::VerifyConfirmationCodeRequest {
            email: email.clone(),
            code,
            purpose: pb::CodePurpose::SignUp.into(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|e| panic!("the code verified: {e:?}"))
        .into_inner()
        .verification_token;
    let tokens = client
        .create_account(pb::CreateAccountRequest {
            username,
            email,
            phone_number: Some(phone),
            password: "Secret#123".to_owned(),
            verification_token,
            organization_name: organization.to_owned(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|e| panic!("an account created: {e:?}"))
        .into_inner();
    user_of(jwt_secret, &tokens.access)
}

/// Invites a fresh address into the organization of `owner` (its owner or an admin) as `role`, and
/// joins with the code from the mail, as the invited person would. Answers the participant's id.
async fn join_at_accounts(
    channel: &tonic::transport::Channel,
    jwt_secret: &SecretString,
    owner: uuid::Uuid,
    role: &str,
) -> uuid::Uuid {
    use evidentia_proto::accounts::v1::{
        self as pb, accounts_service_client::AccountsServiceClient,
    };
    let mut client = AccountsServiceClient::new(channel.clone());
    let (username, email, phone) = new_person();
    let inviter = crate::grpc::Caller {
        user_id: Some(owner),
        ..crate::grpc::Caller::default()
    };
    client
        .invite_participant(inviter.request(pb::InviteParticipantRequest {
            email: Some(email.clone()),
            phone_number: None,
            role: role.to_owned(),
        }))
        .await
        .unwrap_or_else(|e| panic!("{email} invited: {e:?}"));
    let (code, _) = token_after(&email, "/join-organization/", &[]).await;
    let tokens = client
        .join_organization(pb::JoinOrganizationRequest {
            code,
            username,
            email,
            phone_number: Some(phone),
            password: "Secret#123".to_owned(),
            ..Default::default()
        })
        .await
        .unwrap_or_else(|e| panic!("joined the organization: {e:?}"))
        .into_inner();
    user_of(jwt_secret, &tokens.access)
}

/// A time-stamping authority of the test's own: OpenSSL's `openssl ts -reply` behind a plain
/// HTTP listener on loopback, with a CA and a TSA certificate made for it. No public authority
/// is reachable from the tests, and this one speaks the same RFC 3161 over HTTP.
pub struct LocalTsa {
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    /// The CA certificate its tokens check against (PEM).
    pub ca_pem: String,
    /// While set, it answers 503, as an authority that is down.
    pub down: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl LocalTsa {
    pub fn start() -> Self {
        use std::{
            io::{BufRead, BufReader, Read, Write},
            net::TcpListener,
            process::Command,
            sync::{
                Arc,
                atomic::{AtomicBool, Ordering},
            },
        };
        let dir = std::env::temp_dir().join(format!("evidentia-tsa-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("TSA directory: {e}"));
        let openssl = |args: &[&str]| {
            let out = Command::new("openssl")
                .args(args)
                .current_dir(&dir)
                .output()
                .unwrap_or_else(|e| panic!("openssl runs: {e}"));
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        std::fs::write(
            dir.join("tsa.ext"),
            "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n\
             extendedKeyUsage=critical,timeStamping\n",
        )
        .unwrap_or_else(|e| panic!("extensions: {e}"));
        std::fs::write(
            dir.join("ts.cnf"),
            "[ tsa ]\ndefault_tsa = local\n[ local ]\ndir = .\nserial = ./serial\n\
             crypto_device = builtin\nsigner_cert = ./tsa.pem\ncerts = ./ca.pem\n\
             signer_key = ./tsa.key\nsigner_digest = sha256\ndefault_policy = 1.3.6.1.4.1.4146.2.3\n\
             digests = sha256\naccuracy = secs:1\nordering = no\ntsa_name = no\n\
             ess_cert_id_chain = no\ness_cert_id_alg = sha256\n",
        )
        .unwrap_or_else(|e| panic!("ts config: {e}"));
        std::fs::write(dir.join("serial"), "01\n").unwrap_or_else(|e| panic!("serial: {e}"));
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
        ];
        let mut ca = vec!["req", "-x509"];
        ca.extend(ec);
        ca.extend([
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=Evidentia test TSA root",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ]);
        openssl(&ca);
        let mut leaf = vec!["req"];
        leaf.extend(ec);
        leaf.extend([
            "-keyout",
            "tsa.key",
            "-out",
            "tsa.csr",
            "-subj",
            "/CN=Evidentia test TSA",
        ]);
        openssl(&leaf);
        openssl(&[
            "x509",
            "-req",
            "-in",
            "tsa.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "tsa.pem",
            "-days",
            "2",
            "-extfile",
            "tsa.ext",
        ]);
        let ca_pem =
            std::fs::read_to_string(dir.join("ca.pem")).unwrap_or_else(|e| panic!("CA: {e}"));

        let listener =
            TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("TSA listener: {e}"));
        let url = format!(
            "http://{}/",
            listener
                .local_addr()
                .unwrap_or_else(|e| panic!("address: {e}"))
        );
        let down = Arc::new(AtomicBool::new(false));
        let refusing = down.clone();
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(mut stream) = stream else { continue };
                let mut reader =
                    BufReader::new(stream.try_clone().unwrap_or_else(|e| panic!("stream: {e}")));
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                let mut query = vec![0; length];
                if reader.read_exact(&mut query).is_err() {
                    continue;
                }
                let (status, body) = if refusing.load(Ordering::SeqCst) {
                    ("503 Service Unavailable", Vec::new())
                } else {
                    let (q, r) = (format!("q{n}.tsq"), format!("r{n}.tsr"));
                    std::fs::write(dir.join(&q), &query).unwrap_or_else(|e| panic!("query: {e}"));
                    let out = Command::new("openssl")
                        .args([
                            "ts",
                            "-reply",
                            "-config",
                            "ts.cnf",
                            "-queryfile",
                            &q,
                            "-out",
                            &r,
                        ])
                        .current_dir(&dir)
                        .output()
                        .unwrap_or_else(|e| panic!("openssl ts runs: {e}"));
                    match std::fs::read(dir.join(&r)) {
                        Ok(reply) if out.status.success() => ("200 OK", reply),
                        _ => ("500 Internal Server Error", Vec::new()),
                    }
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/timestamp-reply\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Self { url, ca_pem, down }
    }
}

/// A server-named queue bound to the test exchange, gone when the test ends.
pub struct Observer {
    _connection: lapin::Connection,
    pub channel: Channel,
    pub queue: String,
}

impl Observer {
    pub async fn bind(config: &AmqpConfig, routing_key: &str) -> Self {
        let (connection, channel) = crate::amqp::open_channel(config, "test-observer")
            .await
            .unwrap_or_else(|e| panic!("connect to RabbitMQ: {e}"));
        let queue = channel
            .queue_declare(
                "".into(),
                QueueDeclareOptions {
                    exclusive: true,
                    auto_delete: true,
                    ..QueueDeclareOptions::default()
                },
                FieldTable::default(),
            )
            .await
            .unwrap_or_else(|e| panic!("declare the observing queue: {e}"))
            .name()
            .as_str()
            .to_owned();
        channel
            .queue_bind(
                queue.as_str().into(),
                config.exchange.as_str().into(),
                routing_key.into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await
            .unwrap_or_else(|e| panic!("bind the observing queue: {e}"));
        Self {
            _connection: connection,
            channel,
            queue,
        }
    }

    /// The next message of the observing queue, waiting for it.
    pub async fn next(&self) -> Delivery {
        next_from(&self.channel, &self.queue).await
    }

    /// The next message if one is waiting now.
    pub async fn try_next(&self) -> Option<Delivery> {
        get(&self.channel, &self.queue).await
    }
}

async fn get(channel: &Channel, queue: &str) -> Option<Delivery> {
    channel
        .basic_get(queue.into(), BasicGetOptions { no_ack: true })
        .await
        .unwrap_or_else(|e| panic!("basic.get: {e}"))
        .map(|message| message.delivery)
}

/// The next message of any queue, waiting for it.
pub async fn next_from(channel: &Channel, queue: &str) -> Delivery {
    eventually(&format!("a message in {queue}"), WAIT, || {
        get(channel, queue)
    })
    .await
}
