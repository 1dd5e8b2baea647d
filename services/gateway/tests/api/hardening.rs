//! What an attacker tried against the API, kept as tests: text that cannot be stored or that
//! disguises itself, tokens that outlive their session, throttles that lock owners out, and the
//! headers every answer carries.

use std::time::Duration;

use crate::support::Stack;
use evidentia_common::testing;
use reqwest::Method;
use serde_json::{Value, json};

fn first_error(body: &Value) -> (&str, &str) {
    let error = &body["errors"][0];
    (
        error["field"].as_str().unwrap_or_default(),
        error["message"].as_str().unwrap_or_default(),
    )
}

#[tokio::test]
async fn control_characters_and_bidi_overrides_are_field_errors_not_server_errors() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let refused = "Contains characters that are not allowed.";

    let address = |street: &str| {
        json!({"country": "US", "apartment_number": "", "province": "NY",
               "street": street, "house": "5", "city": "New York", "zip_code": "10001"})
    };
    let cases: Vec<(Method, &str, Value, &str)> = vec![
        (
            Method::PATCH,
            "accounts/first-last-names/update/",
            json!({"first_name": "Ann\u{0}", "last_name": "Lee"}),
            "first_name",
        ),
        (
            Method::PATCH,
            "accounts/first-last-names/update/",
            json!({"first_name": "Ann", "last_name": "\u{202E}eeL"}),
            "last_name",
        ),
        (
            Method::PATCH,
            "accounts/address/change/",
            address("Main\u{0} St"),
            "street",
        ),
        (
            Method::PATCH,
            "payments/stripe-customer/name/update/",
            json!({"first_name": "Ann", "last_name": "Lee\u{7}"}),
            "last_name",
        ),
        (
            Method::POST,
            "evidence/folders/create/",
            json!({"name": "Lease\u{2066}"}),
            "name",
        ),
    ];
    for (method, path, body, field) in cases {
        let (status, answer) = stack
            .send_auth(method.clone(), path, &user.access, Some(body.clone()))
            .await;
        assert_eq!(status, 400, "{method} {path} {body}: {answer}");
        assert_eq!(first_error(&answer), (field, refused), "{path}: {answer}");
    }

    // Nothing was stored: the names are still unset.
    let (status, me) = stack.get_auth("accounts/me/", &user.access).await;
    assert_eq!(status, 200, "{me}");
    assert_ne!(me["first_name"], "Ann\u{0}");
    let (_, folders) = stack.get_auth("evidence/folders/", &user.access).await;
    assert!(!folders.to_string().contains("Lease"), "{folders}");

    // A name with a line break is refused by the single-line rule; multi-line text with a
    // tab or newline and right-to-left marks still passes the gateway.
    let (status, answer) = stack
        .send_auth(
            Method::PATCH,
            "accounts/first-last-names/update/",
            &user.access,
            Some(json!({"first_name": "Ann\nLee", "last_name": "Lee"})),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(first_error(&answer), ("first_name", refused), "{answer}");
    let (status, answer) = stack
        .send_auth(
            Method::PATCH,
            "accounts/first-last-names/update/",
            &user.access,
            Some(json!({"first_name": "Zoë", "last_name": "שלום\u{200F}"})),
        )
        .await;
    assert_eq!(status, 204, "{answer}");
}

#[tokio::test]
async fn a_logged_out_session_is_refused_at_once_by_every_service_and_others_go_on() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    // A second device of the same user: its own session.
    let (status, other) = stack
        .post(
            "accounts/login/",
            json!({ "username": user.username, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{other}");
    let other_access = other["access"].as_str().expect("access").to_owned();
    let (status, _) = stack
        .post_auth(
            "evidence/folders/create/",
            &user.access,
            json!({ "name": "Before logout" }),
        )
        .await;
    assert_eq!(status, 201);

    let (status, _) = stack
        .post_auth(
            "accounts/logout/",
            &user.access,
            json!({ "refresh": user.refresh }),
        )
        .await;
    assert_eq!(status, 204);
    for path in [
        "evidence/folders/",
        "accounts/me/",
        "payments/payment-methods/get/",
    ] {
        let (status, body) = stack.get_auth(path, &user.access).await;
        assert_eq!(status, 401, "{path}: {body}");
        assert_eq!(body["errors"][0]["code"], "token_not_valid");
    }
    let (status, _) = stack
        .post_auth(
            "evidence/folders/create/",
            &user.access,
            json!({ "name": "After logout" }),
        )
        .await;
    assert_eq!(status, 401);
    // The other device's session did not end.
    assert_eq!(
        stack.get_auth("evidence/folders/", &other_access).await.0,
        200
    );
}

#[tokio::test]
async fn a_throttled_sign_in_answers_429_with_retry_after_and_api_answers_are_not_sniffed() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;
    let attempt = || {
        stack.http.post(stack.url("accounts/login/")).json(&json!({
            "username": user.username, "password": "Wrong#1234",
        }))
    };
    let mut throttled = None;
    for _ in 0..10 {
        let response = attempt().send().await.expect("request");
        assert_eq!(
            response
                .headers()
                .get("x-content-type-options")
                .and_then(|v| v.to_str().ok()),
            Some("nosniff")
        );
        if response.status() == 429 {
            throttled = Some(response);
            break;
        }
        assert_eq!(response.status(), 400);
    }
    let response = throttled.expect("wrong passwords are throttled");
    let wait: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert!((1..=900).contains(&wait), "{wait}");
    let body: Value = response.json().await.expect("json");
    assert_eq!(
        first_error(&body).1,
        "Too many attempts. Please try again later."
    );
}

#[tokio::test]
async fn readiness_fails_while_a_service_cannot_reach_the_broker_but_liveness_holds() {
    // The evidence service is pointed at a port where no broker listens.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let stack = Stack::start_unready(|evidence| {
        evidence.service.amqp.url =
            secrecy::SecretString::from(format!("amqp://guest:guest@127.0.0.1:{port}/%2f"));
    })
    .await;
    // The others become ready as their relays connect; evidence never does.
    let health = testing::eventually("only evidence failing", Duration::from_secs(20), || async {
        let (status, health) = stack.get("health/").await;
        (status == 503 && health["failing"] == json!(["evidence"])).then_some(health)
    })
    .await;
    assert_eq!(health["status"], "unavailable");
    assert_eq!(stack.get("health/live/").await.0, 200);
}
