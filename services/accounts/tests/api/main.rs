//! The accounts service over gRPC, in-process on a free port, against the real PostgreSQL,
//! Redis, RabbitMQ, SMTP sink and SMS file sink (codes are read from the messages the sinks wrote).
//! One test binary: sign-up, login and sessions here, other areas in modules.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions: a failed step should stop the test"
)]

mod history;
mod organizations;
mod profile;
mod recovery;

use std::{
    collections::HashMap,
    path::PathBuf,
    time::{SystemTime, UNIX_EPOCH},
};

use accounts::{AccountsService, config::Config};
use evidentia_common::{
    auth,
    config::Configuration as _,
    grpc::Caller,
    service::test_config,
    testing::{self, Spawned, WAIT},
};
use evidentia_proto::{
    Event,
    accounts::v1::{self as pb, CodePurpose, accounts_service_client::AccountsServiceClient},
    events::v1::AccountCreated,
};
use prost::Message;
use tonic::{Code, Status, transport::Channel};
use tonic_types::StatusExt;
use uuid::Uuid;

const PASSWORD: &str = "Secret#123";
const CODE_FIELD: &str = "confirmation_code";

/// One accounts service of the test's own: its database, its exchange, its limits.
struct TestApp {
    client: AccountsServiceClient<Channel>,
    config: Config,
    service: Spawned,
    started_nanos: u128,
    codes_read: HashMap<String, usize>,
}

/// A person signing up, with values no other test uses (Redis is shared).
#[derive(Debug, Clone)]
struct Person {
    username: String,
    email: String,
    phone: pb::PhoneNumber,
}

impl Person {
    fn new() -> Self {
        let id = Uuid::new_v4();
        let tag = &id.simple().to_string()[..12];
        Self {
            username: format!("u{tag}"),
            email: format!("t{tag}@example.com"),
            phone: pb::PhoneNumber {
                country_code: "+1".to_owned(),
                national_number: format!("{:010}", id.as_u128() % 10_000_000_000),
            },
        }
    }
}

fn now_nanos() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// Where the SMTP sink writes one `.eml` per message.
/// The confirmation codes mailed to `email` since `since_nanos`, oldest first.
fn codes_mailed_to(email: &str, since_nanos: u128) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(testing::mail_dir()) else {
        return Vec::new();
    };
    let mut names: Vec<(u128, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let arrived = name
                .strip_suffix(".eml")?
                .split('-')
                .next()?
                .parse::<u128>()
                .ok()?;
            (arrived >= since_nanos).then(|| (arrived, entry.path()))
        })
        .collect();
    names.sort();
    let to = format!("to: {email}");
    names
        .into_iter()
        .filter_map(|(_, path)| std::fs::read_to_string(path).ok())
        .filter(|text| text.lines().any(|line| line.trim().to_lowercase() == to))
        .filter_map(|text| {
            let (_, rest) = text.split_once("Your Evidentia confirmation code is ")?;
            let code: String = rest.chars().take(6).collect();
            (code.len() == 6 && code.chars().all(|c| c.is_ascii_digit())).then_some(code)
        })
        .collect()
}

use testing::field_errors as field_violations;

/// Asserts `status` is InvalidArgument naming `field` with `message`.
#[track_caller]
fn assert_field_error(status: &Status, field: &str, message: &str) {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let violations = field_violations(status);
    assert!(
        violations.iter().any(|(f, m)| f == field && m == message),
        "expected {field}: {message:?}; got {violations:?}"
    );
}

fn wrong_code(code: &str) -> String {
    let n: u32 = code.parse().unwrap();
    format!("{:06}", (n + 1) % 1_000_000)
}

fn as_user(user_id: Uuid) -> Caller {
    Caller {
        user_id: Some(user_id),
        ..Caller::default()
    }
}

impl TestApp {
    async fn spawn() -> Self {
        Self::spawn_with(|_| {}).await
    }

    async fn spawn_with(customize: impl FnOnce(&mut Config)) -> Self {
        let mut config = Config {
            service: test_config("accounts").await,
            ..Config::from_env().unwrap()
        };
        // The ceiling on all messages is shared by every test run on this Redis.
        config.limits.code_sends_total = u32::MAX;
        customize(&mut config);
        let service = Spawned::start::<AccountsService>(config.clone()).await;
        Self {
            client: AccountsServiceClient::new(service.channel.clone()),
            config,
            service,
            started_nanos: now_nanos(),
            codes_read: HashMap::new(),
        }
    }

    async fn stop(self) {
        self.service.stop().await;
    }

    async fn send_code(&mut self, email: &str) -> Result<i64, Status> {
        self.client
            .send_confirmation_code(pb::SendConfirmationCodeRequest {
                email: email.to_owned(),
                purpose: CodePurpose::SignUp.into(),
                ..Default::default()
            })
            .await
            .map(|r| r.into_inner().expires_in_seconds)
    }

    async fn send_code_from(&mut self, email: &str, client_ip: &str) -> Result<i64, Status> {
        let caller = Caller {
            client_ip: Some(client_ip.to_owned()),
            ..Caller::default()
        };
        self.client
            .send_confirmation_code(caller.request(pb::SendConfirmationCodeRequest {
                email: email.to_owned(),
                purpose: CodePurpose::SignUp.into(),
                ..Default::default()
            }))
            .await
            .map(|r| r.into_inner().expires_in_seconds)
    }

    /// Waits for the next code mailed to `email` (one this test has not read yet).
    async fn next_code(&mut self, email: &str) -> String {
        let read = self.codes_read.get(email).copied().unwrap_or(0);
        let since = self.started_nanos;
        let code = testing::eventually(
            &format!("a confirmation code mailed to {email}"),
            WAIT,
            || async { codes_mailed_to(email, since).get(read).cloned() },
        )
        .await;
        self.codes_read.insert(email.to_owned(), read + 1);
        code
    }

    async fn verify_code(&mut self, email: &str, code: &str) -> Result<String, Status> {
        self.client
            .verify_confirmation_code(pb::VerifyConfirmationCodeRequest {
                email: email.to_owned(),
                code: code.to_owned(),
                purpose: CodePurpose::SignUp.into(),
                ..Default::default()
            })
            .await
            .map(|r| r.into_inner().verification_token)
    }

    /// Sends a code to `email`, reads it from the mail and verifies it.
    async fn verified(&mut self, email: &str) -> String {
        self.send_code(email).await.unwrap();
        let code = self.next_code(email).await;
        self.verify_code(email, &code).await.unwrap()
    }

    async fn create(&mut self, person: &Person, token: &str) -> Result<pb::TokenPair, Status> {
        self.client
            .create_account(pb::CreateAccountRequest {
                username: person.username.clone(),
                email: person.email.clone(),
                phone_number: Some(person.phone.clone()),
                password: PASSWORD.to_owned(),
                verification_token: token.to_owned(),
                ..Default::default()
            })
            .await
            .map(tonic::Response::into_inner)
    }

    async fn sign_up(&mut self) -> (Person, pb::TokenPair) {
        let person = Person::new();
        let token = self.verified(&person.email).await;
        let tokens = self.create(&person, &token).await.unwrap();
        (person, tokens)
    }

    fn user_of(&self, tokens: &pb::TokenPair) -> Uuid {
        auth::verify_access(&self.config.sessions.jwt_secret, &tokens.access)
            .expect("a valid access token")
            .user_id
    }

    async fn login(&mut self, login: &str, password: &str) -> Result<pb::TokenPair, Status> {
        self.client
            .login(pb::LoginRequest {
                username: login.to_owned(),
                password: password.to_owned(),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    async fn login_from(
        &mut self,
        login: &str,
        password: &str,
        client_ip: &str,
    ) -> Result<pb::TokenPair, Status> {
        let caller = Caller {
            client_ip: Some(client_ip.to_owned()),
            ..Caller::default()
        };
        self.client
            .login(caller.request(pb::LoginRequest {
                username: login.to_owned(),
                password: password.to_owned(),
            }))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn refresh(&mut self, refresh: &str) -> Result<pb::TokenPair, Status> {
        self.client
            .refresh_token(pb::RefreshTokenRequest {
                refresh: refresh.to_owned(),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    async fn availability(
        &mut self,
        request: pb::CheckAvailabilityRequest,
    ) -> Result<pb::CheckAvailabilityResponse, Status> {
        self.client
            .check_availability(request)
            .await
            .map(tonic::Response::into_inner)
    }

    /// Makes every confirmation code sent to `email` expired.
    async fn expire_codes(&self, email: &str) {
        let mut conn = testing::connect(&self.config.service.database_url).await;
        sqlx::query!(
            "UPDATE confirmation_codes SET expires_at = now() - interval '1 second' WHERE subject = $1",
            email
        )
        .execute(&mut conn)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn signing_up_with_a_mailed_code_creates_the_account_and_publishes_account_created() {
    let mut app = TestApp::spawn().await;
    let observer =
        testing::Observer::bind(&app.config.service.amqp, AccountCreated::ROUTING_KEY).await;
    let person = Person::new();

    let expires = app.send_code(&person.email).await.unwrap();
    assert_eq!(expires, app.config.limits.code_ttl_seconds);
    let code = app.next_code(&person.email).await;
    let verification = app.verify_code(&person.email, &code).await.unwrap();
    assert!(!verification.is_empty());
    let tokens = app.create(&person, &verification).await.unwrap();
    assert!(!tokens.refresh.is_empty());
    assert_eq!(
        tokens.access_expires_in_seconds,
        app.config.sessions.access_token_ttl_seconds
    );
    let user_id = app.user_of(&tokens);

    let profile = app
        .client
        .get_profile(as_user(user_id).request(pb::GetProfileRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(profile.id, user_id.to_string());
    assert_eq!(profile.username, person.username);
    assert_eq!(profile.email, person.email);
    assert_eq!(profile.phone_number, Some(person.phone.clone()));
    assert_eq!(profile.account_type, "individual");
    assert_eq!(profile.communication_method, "email");

    let delivery = observer.next().await;
    assert_eq!(
        delivery.properties.kind().as_ref().map(|t| t.to_string()),
        Some(AccountCreated::TYPE_NAME.to_owned())
    );
    let event = AccountCreated::decode(delivery.data.as_slice()).unwrap();
    assert_eq!(event.user_id, user_id.to_string());
    assert_eq!(event.username, person.username);
    assert_eq!(event.email, person.email);
    assert_eq!(event.account_type, "individual");
    assert_eq!(event.phone_country_code, person.phone.country_code);
    assert_eq!(event.phone_national_number, person.phone.national_number);
    drop(observer);
    app.stop().await;
}

#[tokio::test]
async fn availability_answers_only_for_the_values_sent() {
    let mut app = TestApp::spawn().await;
    let (taken, _) = app.sign_up().await;
    let free = Person::new();

    let answer = app
        .availability(pb::CheckAvailabilityRequest {
            email: Some(taken.email.to_uppercase()),
            username: Some(free.username.clone()),
            phone_number: Some(taken.phone.clone()),
        })
        .await
        .unwrap();
    assert_eq!(
        answer.email,
        Some(false),
        "e-mails compare case-insensitively"
    );
    assert_eq!(answer.username, Some(true));
    assert_eq!(answer.phone_number, Some(false));

    let answer = app
        .availability(pb::CheckAvailabilityRequest {
            username: Some(taken.username.to_uppercase()),
            ..pb::CheckAvailabilityRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(
        answer,
        pb::CheckAvailabilityResponse {
            email: None,
            username: Some(false),
            phone_number: None,
        }
    );

    let answer = app
        .availability(pb::CheckAvailabilityRequest {
            email: Some(free.email.clone()),
            phone_number: Some(free.phone.clone()),
            ..pb::CheckAvailabilityRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(
        answer,
        pb::CheckAvailabilityResponse {
            email: Some(true),
            username: None,
            phone_number: Some(true),
        }
    );
    app.stop().await;
}

#[tokio::test]
async fn invalid_values_come_back_as_field_violations_with_the_spec_messages() {
    let mut app = TestApp::spawn().await;
    let check = |email: Option<&str>, username: Option<&str>, phone: Option<(&str, &str)>| {
        pb::CheckAvailabilityRequest {
            email: email.map(str::to_owned),
            username: username.map(str::to_owned),
            phone_number: phone.map(|(country_code, national_number)| pb::PhoneNumber {
                country_code: country_code.to_owned(),
                national_number: national_number.to_owned(),
            }),
        }
    };
    // spec §5 Email, Username, Phone number, Country code
    let long_email = format!("{}@example.com", "a".repeat(140));
    let cases = [
        (
            check(Some(""), None, None),
            "email",
            "This field is required",
        ),
        (
            check(Some("not-an-email"), None, None),
            "email",
            "Please enter a valid email address",
        ),
        (
            check(Some(&long_email), None, None),
            "email",
            "Maximum 150 characters",
        ),
        (
            check(None, Some(""), None),
            "username",
            "This field is required",
        ),
        (
            check(None, Some("bad name"), None),
            "username",
            "Please enter a valid username",
        ),
        (
            check(None, Some("a"), None),
            "username",
            "Minimum 2 characters",
        ),
        (
            check(None, Some(&"a".repeat(21)), None),
            "username",
            "Maximum 20 characters",
        ),
        (
            check(None, None, Some(("1", "4155550100"))),
            "phone_number",
            "Invalid country code",
        ),
        (
            check(None, None, Some(("+123456", "4155550100"))),
            "phone_number",
            "Invalid country code",
        ),
        (
            check(None, None, Some(("+999", "4155550100"))),
            "phone_number",
            "Invalid country code",
        ),
        (
            check(None, None, Some(("+1", "41555e0100"))),
            "phone_number",
            "Only digits allowed",
        ),
        (
            check(None, None, Some(("+1", "41555501"))),
            "phone_number",
            "Minimum 9 digits",
        ),
        (
            check(None, None, Some(("+1", "415555010012"))),
            "phone_number",
            "Maximum 11 digits",
        ),
    ];
    for (request, field, message) in cases {
        let status = app
            .availability(request.clone())
            .await
            .expect_err(&format!("{request:?} is refused"));
        assert_field_error(&status, field, message);
        assert_eq!(
            status.message(),
            message,
            "the first error is the status message"
        );
    }

    // Every invalid field of a form at once.
    let status = app
        .availability(check(Some("nope"), Some("x"), Some(("+1", "123"))))
        .await
        .unwrap_err();
    assert_eq!(field_violations(&status).len(), 3, "{status:?}");

    // spec §5 Password
    let person = Person::new();
    for (password, message) in [
        ("", "This field is required"),
        ("Ab#1", "Minimum 8 characters"),
        (
            &format!("Ab#1{}", "x".repeat(29)) as &str,
            "Maximum 32 characters",
        ),
        ("abcdefg#1", "Wrong Password. Please try again"),
        ("ABCDEFG#1", "Wrong Password. Please try again"),
        ("Abcdefg#x", "Wrong Password. Please try again"),
        ("Abcdefg12", "Wrong Password. Please try again"),
    ] {
        let status = app
            .client
            .create_account(pb::CreateAccountRequest {
                username: person.username.clone(),
                email: person.email.clone(),
                phone_number: Some(person.phone.clone()),
                password: password.to_owned(),
                verification_token: "unused".to_owned(),
                ..pb::CreateAccountRequest::default()
            })
            .await
            .expect_err(&format!("password {password:?} is refused"));
        assert_field_error(&status, "password", message);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_confirmation_code_works_only_once() {
    let mut app = TestApp::spawn().await;
    let email = Person::new().email;
    app.send_code(&email).await.unwrap();
    let code = app.next_code(&email).await;
    app.verify_code(&email, &code).await.unwrap();

    let status = app.verify_code(&email, &code).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(field_violations(&status)[0].0, CODE_FIELD);
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_code_is_called_incorrect_and_a_new_code_replaces_the_old_one() {
    let mut app = TestApp::spawn().await;
    let email = Person::new().email;
    app.send_code(&email).await.unwrap();
    let first = app.next_code(&email).await;
    // spec §5 Confirmation code: an error containing 'incorrect' highlights the field
    let status = app
        .verify_code(&email, &wrong_code(&first))
        .await
        .unwrap_err();
    assert_field_error(&status, CODE_FIELD, "The confirmation code is incorrect.");

    app.send_code(&email).await.unwrap();
    let second = app.next_code(&email).await;
    if first != second {
        app.verify_code(&email, &first)
            .await
            .expect_err("the replaced code is refused");
    }
    app.verify_code(&email, &second).await.unwrap();
    app.stop().await;
}

#[tokio::test]
async fn an_expired_code_is_refused() {
    let mut app = TestApp::spawn().await;
    let email = Person::new().email;
    app.send_code(&email).await.unwrap();
    let code = app.next_code(&email).await;
    app.expire_codes(&email).await;

    let status = app.verify_code(&email, &code).await.unwrap_err();
    assert_field_error(
        &status,
        CODE_FIELD,
        "The confirmation code has expired. Please request a new code.",
    );
    app.stop().await;
}

#[tokio::test]
async fn after_five_wrong_tries_even_the_right_code_is_refused() {
    let mut app = TestApp::spawn().await;
    assert_eq!(app.config.limits.code_max_attempts, 5);
    let email = Person::new().email;
    app.send_code(&email).await.unwrap();
    let code = app.next_code(&email).await;
    for _ in 1..=4 {
        let status = app
            .verify_code(&email, &wrong_code(&code))
            .await
            .unwrap_err();
        assert_field_error(&status, CODE_FIELD, "The confirmation code is incorrect.");
    }
    let status = app
        .verify_code(&email, &wrong_code(&code))
        .await
        .unwrap_err();
    assert_field_error(
        &status,
        CODE_FIELD,
        "Too many attempts. Please request a new code.",
    );

    let status = app
        .verify_code(&email, &code)
        .await
        .expect_err("the sixth try is refused");
    assert_field_error(
        &status,
        CODE_FIELD,
        "Too many attempts. Please request a new code.",
    );
    app.stop().await;
}

#[tokio::test]
async fn sending_codes_is_rate_limited_per_address() {
    let mut app = TestApp::spawn_with(|config| config.limits.code_sends_per_window = 2).await;
    let email = Person::new().email;
    app.send_code(&email).await.unwrap();
    app.send_code(&email).await.unwrap();

    let status = app.send_code(&email).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(
        status.get_details_error_info().map(|i| i.reason),
        Some("rate_limited".to_owned())
    );
    app.send_code(&Person::new().email)
        .await
        .expect("another address is not limited");
    app.stop().await;
}

#[tokio::test]
async fn sending_codes_is_limited_per_client_address_and_plus_tags_are_one_mailbox() {
    let mut app = TestApp::spawn_with(|config| {
        config.limits.code_sends_per_window = 2;
        config.limits.code_sends_per_client = 3;
    })
    .await;
    // `user+x@` variants reach one inbox, so they share its limit.
    let email = Person::new().email;
    let (local, domain) = email.split_once('@').expect("an e-mail");
    app.send_code_from(&email, &fresh_ip()).await.unwrap();
    app.send_code_from(&format!("{local}+a@{domain}"), &fresh_ip())
        .await
        .unwrap();
    let status = app
        .send_code_from(&format!("{local}+b@{domain}"), &fresh_ip())
        .await
        .expect_err("a third code to one mailbox");
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(status.get_details_retry_info().is_some(), "{status:?}");

    // One client sending to ever new addresses is stopped too.
    let client = &fresh_ip();
    for _ in 0..3 {
        app.send_code_from(&Person::new().email, client)
            .await
            .unwrap();
    }
    let status = app
        .send_code_from(&Person::new().email, client)
        .await
        .expect_err("a fourth code from one address");
    assert_eq!(status.code(), Code::ResourceExhausted);
    app.send_code_from(&Person::new().email, &fresh_ip())
        .await
        .expect("another address is not limited");
    app.stop().await;
}

#[tokio::test]
async fn a_verification_token_creates_one_account_only() {
    let mut app = TestApp::spawn().await;
    let person = Person::new();
    let token = app.verified(&person.email).await;
    app.create(&person, &token).await.unwrap();

    let other = Person {
        email: person.email.clone(),
        ..Person::new()
    };
    let status = app.create(&other, &token).await.unwrap_err();
    assert_field_error(&status, "email", "Please confirm your email address again.");

    let stranger = Person::new();
    let status = app.create(&stranger, &token).await.unwrap_err();
    assert_field_error(&status, "email", "Please confirm your email address again.");
    app.stop().await;
}

#[tokio::test]
async fn a_taken_username_email_or_phone_is_a_field_error() {
    let mut app = TestApp::spawn().await;
    let (taken, _) = app.sign_up().await;
    let fresh = Person::new();
    // A refused sign-up does not spend the verification, so one serves every attempt.
    let fresh_token = app.verified(&fresh.email).await;

    let same_username = Person {
        username: taken.username.to_uppercase(),
        ..fresh.clone()
    };
    let status = app.create(&same_username, &fresh_token).await.unwrap_err();
    assert_field_error(
        &status,
        "username",
        "A user with that username already exists.",
    );

    let same_phone = Person {
        phone: taken.phone.clone(),
        ..fresh.clone()
    };
    let status = app.create(&same_phone, &fresh_token).await.unwrap_err();
    assert_field_error(
        &status,
        "phone_number",
        "A user with that phone number already exists.",
    );

    let token = app.verified(&taken.email).await;
    let same_email = Person {
        email: taken.email.clone(),
        ..Person::new()
    };
    let status = app.create(&same_email, &token).await.unwrap_err();
    assert_field_error(&status, "email", "A user with that email already exists.");

    app.create(&fresh, &fresh_token)
        .await
        .expect("the refused attempts left the verification usable");
    app.stop().await;
}

#[tokio::test]
async fn login_accepts_the_username_or_the_email_and_refuses_a_wrong_password() {
    let mut app = TestApp::spawn().await;
    let (person, tokens) = app.sign_up().await;
    let user_id = app.user_of(&tokens);

    let by_username = app.login(&person.username, PASSWORD).await.unwrap();
    assert_eq!(app.user_of(&by_username), user_id);
    let by_email = app
        .login(&person.email.to_uppercase(), PASSWORD)
        .await
        .unwrap();
    assert_eq!(app.user_of(&by_email), user_id);
    assert_ne!(
        by_username.refresh, by_email.refresh,
        "each login starts its own session"
    );

    let status = app.login(&person.username, "Secret#124").await.unwrap_err();
    assert_field_error(&status, "password", "Wrong Password. Please try again");
    let status = app
        .login(&Person::new().username, PASSWORD)
        .await
        .unwrap_err();
    assert_field_error(&status, "password", "Wrong Password. Please try again");
    app.stop().await;
}

/// A client address no earlier run has used: limits live in Redis across runs.
fn fresh_ip() -> String {
    let [a, b, c, ..] = Uuid::new_v4().into_bytes();
    format!("10.{a}.{b}.{c}")
}

#[tokio::test]
async fn wrong_passwords_slow_the_guessing_address_but_never_lock_the_owner_out() {
    let mut app = TestApp::spawn_with(|config| {
        config.limits.login_free_failures_per_pair = 2;
        config.limits.login_free_failures_per_client = 1000;
    })
    .await;
    let (person, _) = app.sign_up().await;
    let attacker = &fresh_ip();
    // The account is counted whichever name is typed: username, then e-mail.
    for login in [&person.username, &person.email] {
        let status = app
            .login_from(login, "Wrong#1234", attacker)
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
    }
    // The third failure starts the backoff: the attacker's next try waits, whatever it sends.
    let status = app
        .login_from(&person.username, "Wrong#1234", attacker)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    let status = app
        .login_from(&person.username.to_uppercase(), PASSWORD, attacker)
        .await
        .expect_err("the guessing address waits");
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert_eq!(
        status.get_details_error_info().map(|i| i.reason),
        Some("rate_limited".to_owned())
    );
    let wait = status
        .get_details_retry_info()
        .and_then(|r| r.retry_delay)
        .expect("how long to wait");
    assert!((1..=2).contains(&wait.as_secs()), "{wait:?}");

    // The owner, from their own address, signs in with the right password at once.
    app.login_from(&person.username, PASSWORD, &fresh_ip())
        .await
        .expect("the owner is not locked out");
    app.stop().await;
}

#[tokio::test]
async fn one_address_failing_on_many_accounts_waits_but_its_successes_are_never_counted() {
    let mut app = TestApp::spawn_with(|config| {
        config.limits.login_free_failures_per_pair = 100;
        config.limits.login_free_failures_per_client = 2;
    })
    .await;
    let office = &fresh_ip();
    // Colleagues behind one address signing in correctly are never slowed.
    for _ in 0..4 {
        let (person, _) = app.sign_up().await;
        app.login_from(&person.username, PASSWORD, office)
            .await
            .expect("a correct sign-in is not counted");
    }
    // A stuffer trying many accounts from one address is.
    let (person, _) = app.sign_up().await;
    for _ in 0..3 {
        let status = app
            .login_from(&Person::new().username, "Wrong#1234", office)
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
    }
    let status = app
        .login_from(&person.username, PASSWORD, office)
        .await
        .expect_err("the address waits after too many failures");
    assert_eq!(status.code(), Code::ResourceExhausted);
    app.stop().await;
}

#[tokio::test]
async fn refresh_rotates_and_reusing_a_spent_refresh_token_revokes_the_session() {
    let mut app = TestApp::spawn().await;
    let (_, first) = app.sign_up().await;
    let user_id = app.user_of(&first);

    let second = app.refresh(&first.refresh).await.unwrap();
    assert_ne!(second.refresh, first.refresh);
    assert_eq!(app.user_of(&second), user_id);
    let third = app.refresh(&second.refresh).await.unwrap();

    // spec §4 Session: a refresh token is good for one refresh
    let status = app.refresh(&first.refresh).await.unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    assert_eq!(
        status.get_details_error_info().map(|i| i.reason),
        Some("token_not_valid".to_owned())
    );
    let status = app
        .refresh(&third.refresh)
        .await
        .expect_err("the family was revoked by the reuse");
    assert_eq!(status.code(), Code::Unauthenticated);

    let status = app.refresh("not-a-token").await.unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    app.stop().await;
}

#[tokio::test]
async fn logout_revokes_the_session_but_not_the_others() {
    let mut app = TestApp::spawn().await;
    let (person, signed_up) = app.sign_up().await;
    let caller = as_user(app.user_of(&signed_up));
    let other_session = app.login(&person.username, PASSWORD).await.unwrap();
    let logout = |refresh: &str| {
        caller.request(pb::LogoutRequest {
            refresh: refresh.to_owned(),
        })
    };

    app.client.logout(logout(&signed_up.refresh)).await.unwrap();
    let status = app.refresh(&signed_up.refresh).await.unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    app.refresh(&other_session.refresh)
        .await
        .expect("another session lives on");
    // Ending it again changes nothing.
    app.client.logout(logout(&signed_up.refresh)).await.unwrap();
    app.stop().await;
}

#[tokio::test]
async fn logout_ends_only_the_callers_own_session() {
    let mut app = TestApp::spawn().await;
    let (_, ann) = app.sign_up().await;
    let (_, bob) = app.sign_up().await;
    let ann_caller = as_user(app.user_of(&ann));

    for refresh in [bob.refresh.as_str(), "not-a-token", ""] {
        let status = app
            .client
            .logout(ann_caller.request(pb::LogoutRequest {
                refresh: refresh.to_owned(),
            }))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::NotFound, "{refresh:?}: {status:?}");
    }
    // Bob's session was not ended by Ann's call: his token still refreshes (and rotates).
    app.refresh(&bob.refresh)
        .await
        .expect("another user's session lives on");
    let status = app
        .client
        .logout(pb::LogoutRequest {
            refresh: ann.refresh.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated, "a caller is needed");
    app.stop().await;
}

#[tokio::test]
async fn a_profile_needs_a_caller_and_is_always_the_callers_own() {
    let mut app = TestApp::spawn().await;
    let (ann, ann_tokens) = app.sign_up().await;
    let (bob, bob_tokens) = app.sign_up().await;

    let status = app
        .client
        .get_profile(pb::GetProfileRequest {})
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);

    for (person, tokens) in [(&ann, &ann_tokens), (&bob, &bob_tokens)] {
        let user_id = app.user_of(tokens);
        let profile = app
            .client
            .get_profile(as_user(user_id).request(pb::GetProfileRequest {}))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(profile.id, user_id.to_string());
        assert_eq!(profile.username, person.username);
        assert_eq!(profile.email, person.email);
    }
    let status = app
        .client
        .get_profile(as_user(Uuid::now_v7()).request(pb::GetProfileRequest {}))
        .await
        .unwrap_err();
    // An access token of an account that is gone (deleted or purged) reaches nothing.
    assert_eq!(status.code(), Code::Unauthenticated);
    app.stop().await;
}
