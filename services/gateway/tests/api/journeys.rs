//! The first journey through the gateway: sign up with the e-mailed code, stay signed in with
//! rotating refresh tokens, the composed profile, and the API's one error shape.

use std::time::Duration;

use crate::support::Stack;
use evidentia_common::testing;
use serde_json::json;

#[tokio::test]
async fn sign_up_creates_account_stripe_customer_and_referral_code() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;

    // spec §3 "User details": accounts and payments composed; the customer comes from the event.
    let profile = testing::eventually(
        "the Stripe customer from AccountCreated",
        Duration::from_secs(20),
        || async {
            let (status, profile) = stack.get_auth("accounts/me/", &user.access).await;
            assert_eq!(status, 200, "{profile}");
            profile["stripe_customer_id"]
                .as_str()
                .is_some_and(|id| id.starts_with("cus_"))
                .then_some(profile)
        },
    )
    .await;
    assert_eq!(profile["username"], user.username.as_str());
    assert_eq!(profile["email"], user.email.as_str());
    assert_eq!(profile["account_type"], "individual");
    assert_eq!(profile["credit_card_wallet_balance"], 0);
    assert_eq!(profile["auto_topping_up_amount"], 0);
    assert_eq!(profile["one_time_benefit_applied"], false);
    assert_eq!(profile["phone_number"]["country_code"], "+44");

    // The explicit call is idempotent and returns the customer the event made.
    let (status, customer) = stack
        .post_auth("payments/stripe-customer/create/", &user.access, json!({}))
        .await;
    assert_eq!(status, 200, "{customer}");
    assert_eq!(
        customer["stripe_customer_id"],
        profile["stripe_customer_id"]
    );

    let code = testing::eventually(
        "the referral code from AccountCreated",
        Duration::from_secs(20),
        || async {
            let mut conn = testing::connect(&stack.referrals_db).await;
            sqlx::query_scalar!("SELECT code FROM referral_codes")
                .fetch_optional(&mut conn)
                .await
                .expect("query")
        },
    )
    .await;
    let (status, info) = stack
        .get_auth("shareable-codes/referral-info/", &user.access)
        .await;
    assert_eq!(status, 200);
    assert_eq!(info["code"], code.as_str());
    assert_eq!(info["type"], "individual");
}

#[tokio::test]
async fn refresh_rotates_and_reuse_ends_the_session() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;

    let (status, rotated) = stack
        .post(
            "accounts/token/refresh/",
            json!({ "refresh": user.refresh }),
        )
        .await;
    assert_eq!(status, 200, "{rotated}");
    let newest = rotated["refresh"].as_str().expect("refresh").to_owned();
    assert_ne!(newest, user.refresh);
    let (status, me) = stack
        .get_auth("accounts/me/", rotated["access"].as_str().expect("access"))
        .await;
    assert_eq!(status, 200, "{me}");

    // Reusing the first token is refused and revokes the family: the newest one dies with it.
    let (status, body) = stack
        .post(
            "accounts/token/refresh/",
            json!({ "refresh": user.refresh }),
        )
        .await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["errors"][0]["code"], "token_not_valid");
    let (status, _) = stack
        .post("accounts/token/refresh/", json!({ "refresh": newest }))
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn login_and_logout() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;

    let (status, body) = stack
        .post(
            "accounts/login/",
            json!({ "username": user.username, "password": "Wrong12#x" }),
        )
        .await;
    assert_eq!(status, 400);
    // spec §5 Password
    assert_eq!(
        body["errors"][0]["message"],
        "Wrong Password. Please try again"
    );
    assert_eq!(body["errors"][0]["field"], "password");

    let (status, tokens) = stack
        .post(
            "accounts/login/",
            json!({ "username": user.email, "password": "Secret12#" }),
        )
        .await;
    assert_eq!(status, 200, "{tokens}");
    let access = tokens["access"].as_str().expect("access");
    let refresh = tokens["refresh"].as_str().expect("refresh");

    // Another user's refresh token is not the caller's to end: 404, and that session lives on.
    let other = stack.sign_up().await;
    let (status, body) = stack
        .post_auth(
            "accounts/logout/",
            access,
            json!({ "refresh": other.refresh }),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, _) = stack.get_auth("accounts/me/", &other.access).await;
    assert_eq!(status, 200);

    let (status, _) = stack
        .post_auth("accounts/logout/", access, json!({ "refresh": refresh }))
        .await;
    assert_eq!(status, 204);
    let (status, _) = stack
        .post("accounts/token/refresh/", json!({ "refresh": refresh }))
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn client_mistakes_get_the_one_error_shape_never_a_500() {
    let stack = Stack::start().await;

    // No token, a garbage token.
    let (status, body) = stack.get_auth("accounts/me/", "garbage").await;
    assert_eq!(status, 401);
    assert_eq!(body["errors"][0]["code"], "token_not_valid");
    assert!(
        body["request_id"].as_str().is_some_and(|id| !id.is_empty()),
        "{body}"
    );

    // Field errors of spec §5, every one of them, first one first.
    let (status, body) = stack
        .post(
            "accounts/email-username-phone-number/verify/",
            json!({ "email": "nope", "username": "a", "phone_number": { "country_code": "+999", "national_number": "123456789" } }),
        )
        .await;
    assert_eq!(status, 400);
    let errors = body["errors"].as_array().expect("errors");
    assert_eq!(
        errors[0],
        json!({ "message": "Please enter a valid email address", "code": "invalid", "field": "email" })
    );
    assert_eq!(errors[1]["message"], "Minimum 2 characters");
    assert_eq!(errors[2]["message"], "Invalid country code");

    // Malformed JSON and a wrong shape are 400s.
    let response = stack
        .http
        .post(stack.url("accounts/login/"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 400);
    let (status, body) = stack
        .post("accounts/login/", json!({ "username": 5 }))
        .await;
    assert_eq!(status, 400, "{body}");

    // A wrong confirmation code highlights the field: its message contains 'incorrect' (spec §5).
    let (status, _) = stack
        .post(
            "accounts/confirmation-code/send/",
            json!({ "email": "shape@example.com" }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = stack
        .post(
            "accounts/confirmation-code/verify/",
            json!({ "email": "shape@example.com", "code": "12345x" }),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .expect("message")
            .contains("incorrect")
    );

    // Unknown API paths are JSON 404s, not the web app.
    let (status, body) = stack.post("no/such/route/", json!({})).await;
    assert_eq!(status, 404);
    assert_eq!(body["errors"][0]["code"], "not_found");
}

#[tokio::test]
async fn a_bad_query_string_a_bad_path_and_a_wrong_method_answer_the_one_error_shape() {
    let stack = Stack::start().await;
    let user = stack.sign_up().await;

    // A repeated parameter: a 400 on the parameter in the JSON shape, not axum's plain text.
    for (path, field) in [
        ("action-logs/history/?page_size=1&page_size=2", "page_size"),
        (
            "accounts/delete-reasons/?delete_type=a&delete_type=b",
            "delete_type",
        ),
        (
            "evidence/folders/?pickup_folder_id=a&pickup_folder_id=b",
            "pickup_folder_id",
        ),
    ] {
        let response = stack
            .http
            .get(stack.url(path))
            .bearer_auth(&user.access)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 400, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{path}"
        );
        let body: serde_json::Value = response.json().await.expect("json");
        assert_eq!(body["errors"][0]["code"], "invalid", "{path}: {body}");
        assert_eq!(
            (&body["errors"][0]["field"], &body["errors"][0]["message"]),
            (&json!(field), &json!("This field is given more than once.")),
            "{path}: {body}"
        );
        assert!(
            body["request_id"].as_str().is_some_and(|id| !id.is_empty()),
            "{body}"
        );
    }

    // A path parameter that is not UTF-8.
    let (status, body) = stack.get_auth("evidence/folders/%FF/", &user.access).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["code"], "invalid", "{body}");

    // A wrong method, with a body: 405 in the JSON shape, saying which methods the path takes.
    for (method, path, allowed) in [
        (reqwest::Method::DELETE, "accounts/login/", "POST"),
        (reqwest::Method::PUT, "accounts/me/", "GET,HEAD"),
        (reqwest::Method::POST, "evidence/folders/", "GET,HEAD"),
    ] {
        let response = stack
            .http
            .request(method.clone(), stack.url(path))
            .json(&json!({ "username": "x" }))
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 405, "{method} {path}");
        assert_eq!(response.headers()["allow"], allowed, "{method} {path}");
        assert_eq!(response.headers()["content-type"], "application/json");
        let body: serde_json::Value = response.json().await.expect("json");
        assert_eq!(body["errors"][0]["code"], "method_not_allowed", "{body}");
        assert_eq!(body["errors"][0]["message"], "Method not allowed.");
        assert!(
            body["request_id"].as_str().is_some_and(|id| !id.is_empty()),
            "{body}"
        );
    }
}

/// Sends `request` on `stream` and reads one HTTP/1.1 response's status line and headers plus a
/// body of the given Content-Length; `None` when the connection ends first.
async fn exchange(stream: &mut tokio::net::TcpStream, request: &[u8]) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.write_all(request).await.ok()?;
    let mut head = Vec::new();
    let mut byte = [0_u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await.ok()? == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_lowercase();
    let status = head.get(9..12)?.parse().ok()?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0_u8; length];
    stream.read_exact(&mut body).await.ok()?;
    Some(status)
}

#[tokio::test]
async fn an_error_answered_before_the_body_is_read_keeps_the_connection_usable() {
    // Envoy pools connections to the gateway: a connection the gateway closes after a 405 (or a
    // 401) with an unread body is one Envoy may already have sent the next request into.
    let stack = Stack::start().await;
    let address = stack
        .base
        .trim_start_matches("http://")
        .trim_end_matches("/api")
        .to_owned();
    let body = "x".repeat(512 * 1024);
    for (method, path) in [
        ("DELETE", "/api/accounts/login/"),
        ("POST", "/api/accounts/me/"),
        ("PATCH", "/api/payments/pricing/"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(&address)
            .await
            .expect("connect");
        let first = format!(
            "{method} {path} HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        let status = tokio::time::timeout(
            Duration::from_secs(10),
            exchange(&mut stream, first.as_bytes()),
        )
        .await
        .expect("in time");
        assert!(
            matches!(status, Some(401 | 405)),
            "{method} {path}: {status:?}"
        );
        let second = b"GET /api/health/live/ HTTP/1.1\r\nhost: gateway\r\n\r\n";
        let status = tokio::time::timeout(Duration::from_secs(10), exchange(&mut stream, second))
            .await
            .expect("in time");
        assert_eq!(
            status,
            Some(200),
            "{method} {path}: the connection was closed"
        );
    }
}

#[tokio::test]
async fn every_operation_documents_the_errors_it_can_answer() {
    // Every operation behind a token can answer 401; every one taking a body, a query or a path
    // parameter can answer 400 (a malformed one is refused before any service sees it).
    let document = serde_json::to_value(gateway::routes::openapi()).expect("serialize");
    let mut missing = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let responses = operation["responses"].as_object().expect("responses");
            let secured = operation["security"]
                .as_array()
                .is_some_and(|s| !s.is_empty());
            let takes_input = operation.get("requestBody").is_some()
                || operation["parameters"].as_array().is_some_and(|params| {
                    params
                        .iter()
                        .any(|p| p["in"] == "query" || p["in"] == "path")
                });
            for (needed, status) in [(secured, "401"), (takes_input, "400")] {
                if !needed {
                    continue;
                }
                match responses.get(status) {
                    Some(response)
                        if response["content"]["application/json"]["schema"]["$ref"]
                            == "#/components/schemas/ErrorBody" => {}
                    _ => missing.push(format!("{method} {path}: {status}")),
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "undocumented errors:\n{}",
        missing.join("\n")
    );
}
