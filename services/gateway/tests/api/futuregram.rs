//! Futuregram routes through the gateway: the REST shapes and statuses of one bought with an
//! Idempotency-Key, changed by its owner, answered by an executor by the token in their link,
//! and viewed and refreshed by its recipient. The behaviour behind them is sharing's, tested next
//! to it (services/sharing/tests/api/futuregrams.rs).

use std::time::Duration;

use crate::support::{OK_CARD, Stack, folder, jpeg, send, upload, with_default_card};
use chrono::{SecondsFormat, Utc};
use evidentia_common::testing::token_after;
use serde_json::{Value, json};
use uuid::Uuid;

const DAY: Duration = Duration::from_secs(86_400);

fn unique(prefix: &str) -> String {
    format!("{prefix}-{}@example.com", Uuid::now_v7().simple())
}

async fn create(stack: &Stack, access: &str, body: &Value) -> (u16, Value) {
    send(
        stack
            .http
            .post(stack.url("sharing/scheduled-shares/create/"))
            .bearer_auth(access)
            .header("Idempotency-Key", Uuid::now_v7().to_string())
            .json(body),
    )
    .await
}

#[tokio::test]
async fn futuregram_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let folder = folder(&stack, &owner.access, "Lease end").await;
    upload(
        &stack,
        &owner.access,
        &folder,
        jpeg(320, 240, 90),
        "image/jpeg",
    )
    .await;
    let recipient = unique("heir");
    let executor = unique("lawyer");
    let situation = Uuid::new_v4().to_string();
    let mut body = json!({
        "situation_id": situation,
        "folder_id": folder,
        "copy_type": "authenticated",
        "recipients": [{ "email": recipient }],
        "pay_with": "card",
    });

    // A field error: without a date it needs an executor.
    let (status, refused) = create(&stack, &owner.access, &body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "executors", "{refused}");

    body["executors"] = json!([{ "email": executor }]);
    body["release_at"] =
        json!((Utc::now() + chrono::Duration::days(2)).to_rfc3339_opts(SecondsFormat::Secs, true));
    let (status, created) = create(&stack, &owner.access, &body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["futuregram"]["state"], "pending", "{created}");
    assert!(created["transaction"]["id"].is_string(), "{created}");
    let share = created["futuregram"]["share_id"].as_str().unwrap();
    let path = format!("sharing/futuregram/situation/{situation}/");
    let (status, listed) = stack.get_auth(&path, &owner.access).await;
    assert_eq!(status, 200, "{listed}");
    assert_eq!(
        listed["futuregrams"][0]["executors"][0]["state"], "invited",
        "{listed}"
    );

    // Another user's situation is empty, their futuregram 404.
    let other = stack.sign_up().await;
    let (status, theirs) = stack.get_auth(&path, &other.access).await;
    assert_eq!(
        (status, &theirs["futuregrams"]),
        (200, &json!([])),
        "{theirs}"
    );
    let (status, _) = stack
        .send_auth(
            reqwest::Method::PUT,
            &format!("sharing/futuregram/{share}/recipients/update/"),
            &other.access,
            Some(json!({ "recipients": [{ "email": unique("thief") }] })),
        )
        .await;
    assert_eq!(status, 404);
    let (status, changed) = stack
        .send_auth(
            reqwest::Method::PUT,
            &format!("sharing/futuregram/{share}/recipients/update/"),
            &owner.access,
            Some(json!({ "recipients": [{ "email": recipient }] })),
        )
        .await;
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["recipients"][0]["sent_to"], recipient.as_str());

    // The executor answers by the token in their link, open to anyone.
    let (token, _) = token_after(&executor, "/futuregram/executor/accept/", &[]).await;
    let respond = |token: String, email: String| {
        let stack = &stack;
        async move {
            stack
                .post(
                    &format!("sharing/futuregram/executor/respond/{token}/"),
                    json!({ "email": email, "action": "accepted" }),
                )
                .await
        }
    };
    let (status, refused) = respond(token.clone(), unique("someone")).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "email", "{refused}");
    let (status, standing) = respond(token.clone(), executor.clone()).await;
    assert_eq!(status, 200, "{standing}");
    assert_eq!(standing["state"], "accepted");
    assert_eq!(standing["can_veto"], false);
    let (status, _) = respond("NoSuchToken".to_owned(), executor.clone()).await;
    assert_eq!(status, 404);

    // Released, the recipient's view link works a week; then a fresh one is sent (202, no token).
    stack.clock.advance(2 * DAY + Duration::from_secs(60));
    let (view, _) = token_after(&recipient, "/futuregram/view/", &[]).await;
    let (status, shown) = stack.get(&format!("sharing/futuregram/view/{view}/")).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["watermark"]["sent_to"], recipient.as_str());
    let (status, _) = stack.get("sharing/futuregram/view/NoSuchToken/").await;
    assert_eq!(status, 404);
    stack.clock.advance(8 * DAY);
    let (status, expired) = stack.get(&format!("sharing/futuregram/view/{view}/")).await;
    assert_eq!(status, 400, "{expired}");
    assert_eq!(expired["errors"][0]["code"], "link_expired", "{expired}");
    let (status, sent) = stack
        .post(
            &format!("sharing/futuregram/refresh-token/{view}/"),
            json!({}),
        )
        .await;
    assert_eq!(status, 202, "{sent}");
    assert!(sent.get("token").is_none(), "{sent}");
}
