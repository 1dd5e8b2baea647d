//! The first journey through the gateway: sign up with the e-mailed code, stay signed in with
//! rotating refresh tokens, the composed profile, and the API's one error shape.

mod support;

use std::time::Duration;

use evidentia_common::testing;
use serde_json::json;
use support::Stack;

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
            sqlx::query_scalar::<_, String>("SELECT code FROM referral_codes")
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
async fn the_committed_openapi_document_matches_the_code() {
    // The web app generates its request and response types from web/openapi.json.
    let document =
        serde_json::to_string_pretty(&gateway::routes::openapi()).expect("serialize") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/openapi.json");
    if std::env::var("UPDATE_OPENAPI").is_ok() {
        std::fs::write(&path, &document).expect("write web/openapi.json");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == document,
        "web/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo nextest run --workspace -E 'test(openapi)'` then `npm run gen:api` in web/"
    );
    for path in [
        "/api/accounts/email-username-phone-number/verify/",
        "/api/accounts/confirmation-code/send/",
        "/api/accounts/confirmation-code/verify/",
        "/api/accounts/create/",
        "/api/accounts/login/",
        "/api/accounts/token/refresh/",
        "/api/accounts/me/",
        "/api/payments/stripe-customer/create/",
    ] {
        assert!(
            document.contains(&format!("\"{path}\"")),
            "{path} is not documented"
        );
    }
}
