//! Sharing's routes through the gateway: the REST shapes and statuses of a share bought, a
//! recipient's way in by the `X-Folder-Token` header, verification and revocation. The behaviour
//! behind them is sharing's, tested next to it (services/sharing/tests/api).

use crate::support::{
    DECLINED_OFF_SESSION, OK_CARD, Stack, code_for, folder, jpeg, share, upload, with_default_card,
    with_token,
};
use std::time::Duration;

use evidentia_common::testing;
use serde_json::{Value, json};

#[tokio::test]
async fn sharing_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let owners = folder(&stack, &owner.access, "Flat handover").await;
    let image = upload(
        &stack,
        &owner.access,
        &owners,
        jpeg(320, 240, 90),
        "image/jpeg",
    )
    .await;
    let recipient = format!("lawyer-{}@example.com", uuid::Uuid::new_v4().simple());
    let body = json!({
        "copy_type": "unauthenticated",
        "item_ids": [image["id"]],
        "recipients": [{ "email": recipient }],
        "pay_with": "card",
    });

    // The Idempotency-Key header is the request's key: without one, a field error.
    let no_key = stack
        .http
        .post(stack.url(&format!("sharing/folder/{owners}/share/")))
        .bearer_auth(&owner.access)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(no_key.status().as_u16(), 400);
    let refused: Value = no_key.json().await.unwrap();
    assert_eq!(
        refused["errors"][0]["field"], "idempotency_key",
        "{refused}"
    );

    let (status, created) = share(&stack, &owner.access, &owners, "share-1", &body).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["transaction"]["kind"], "sharing");
    assert_eq!(created["share"]["item_count"], 1);
    let mut other = body.clone();
    other["copy_type"] = json!("authenticated");
    let (status, reused) = share(&stack, &owner.access, &owners, "share-1", &other).await;
    assert_eq!(status, 409, "a key reused for another request: {reused}");

    // A declined card is Payment Required.
    let declined = stack.sign_up().await;
    with_default_card(&stack, &declined, DECLINED_OFF_SESSION).await;
    let theirs = folder(&stack, &declined.access, "Deposit").await;
    upload(
        &stack,
        &declined.access,
        &theirs,
        jpeg(64, 48, 10),
        "image/jpeg",
    )
    .await;
    let mut body_of_theirs = body.clone();
    body_of_theirs["item_ids"] = json!([]);
    let (status, refused) = share(&stack, &declined.access, &theirs, "k1", &body_of_theirs).await;
    assert_eq!(status, 402, "{refused}");

    // Another user's folder is 404.
    let (status, _) = stack
        .get_auth(
            &format!("sharing/folder/{owners}/details/"),
            &declined.access,
        )
        .await;
    assert_eq!(status, 404);
    let (status, details) = stack
        .get_auth(&format!("sharing/folder/{owners}/details/"), &owner.access)
        .await;
    assert_eq!(status, 200, "{details}");
    let number = details["shares"][0]["recipients"][0]["transaction_number"]
        .as_str()
        .unwrap()
        .to_owned();

    // The recipient: a code by the link's tokens, then the access token in X-Folder-Token.
    let (t1, t2) = testing::share_link(&recipient).await;
    let (status, _) = stack
        .post("sharing/code/send/", json!({ "t1": t1, "t2": "forged" }))
        .await;
    assert_eq!(status, 404);
    let (code_id, code, _) = code_for(&stack, &recipient, &t1, &t2, &[]).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let check = format!("sharing/code/{code_id}/check/");
    let (status, refused) = stack
        .post(&check, json!({ "confirmation_code": wrong }))
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "confirmation_code");
    let (status, granted) = stack
        .post(&check, json!({ "confirmation_code": code }))
        .await;
    assert_eq!(status, 200, "{granted}");
    assert_eq!(granted["copy_type"], "unauthenticated");
    let token = granted["access_folder_token"].as_str().unwrap().to_owned();
    let (status, view) = with_token(&stack, "sharing/view/", &token).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["watermark"]["sent_to"], recipient.as_str());
    assert_eq!(view["items"].as_array().map(Vec::len), Some(1), "{view}");
    let (status, _) = with_token(&stack, "sharing/view/authenticated/", &token).await;
    assert_eq!(
        status, 404,
        "an unauthenticated share has no authenticated view"
    );
    let copy_id = view["items"][0]["id"].as_str().unwrap();
    let response = stack
        .http
        .post(stack.url(&format!("sharing/copies/{copy_id}/events/")))
        .header("X-Folder-Token", &token)
        .json(&json!({ "kind": "viewed" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 204);

    // The recipient's evidence packet of their copy, once it is ready: a link, then the ZIP.
    testing::eventually("the copy ready", Duration::from_secs(120), || async {
        let (_, view) = with_token(&stack, "sharing/view/", &token).await;
        (view["items"][0]["state"] == "ready").then_some(())
    })
    .await;
    let (status, link) = packet_for(&stack, &token).await;
    assert_eq!(status, 201, "{link}");
    let url = link["url"].as_str().unwrap();
    let response = stack
        .http
        .get(stack.url(url.trim_start_matches("/api/")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"evidence-packet-copies-Flat-handover-"),
        "{disposition}"
    );
    assert_eq!(&response.bytes().await.unwrap()[..4], b"PK\x03\x04");

    // Verification is open to anyone.
    let (status, checked) = stack
        .get(&format!("sharing/verify/{}/", number.to_lowercase()))
        .await;
    assert_eq!(status, 200, "{checked}");
    assert_eq!(checked["copy_type"], "unauthenticated");
    let (status, _) = stack
        .post("sharing/verify/file/", json!({ "sha256": "0".repeat(64) }))
        .await;
    assert_eq!(status, 404);

    // Revoked: the token is refused as unauthorized, with its reason as `code`.
    let share_id = created["share"]["id"].as_str().unwrap();
    let (status, revoked) = stack
        .post_auth(
            &format!("sharing/shares/{share_id}/revoke/"),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["revoked_at"].is_string(), "{revoked}");
    let (status, refused) = with_token(&stack, "sharing/view/", &token).await;
    assert_eq!(status, 401, "{refused}");
    assert_eq!(refused["errors"][0]["code"], "folder_token_invalid");
    let (status, refused) = packet_for(&stack, &token).await;
    assert_eq!(status, 401, "{refused}");
}

/// A recipient asks for the packet of their copies with their folder token.
async fn packet_for(stack: &Stack, token: &str) -> (u16, Value) {
    let response = stack
        .http
        .post(stack.url("sharing/view/packet/"))
        .header("X-Folder-Token", token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn an_evidence_packet_is_a_link_then_a_streamed_zip() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    let owners = folder(&stack, &owner.access, "Packet").await;
    let image = upload(
        &stack,
        &owner.access,
        &owners,
        jpeg(320, 240, 40),
        "image/jpeg",
    )
    .await;
    let path = format!("sharing/folder/{owners}/packet/");
    let (status, link) = stack
        .post_auth(&path, &owner.access, json!({ "item_ids": [image["id"]] }))
        .await;
    assert_eq!(status, 201, "{link}");
    assert!(link["expires_at"].is_string(), "{link}");
    let url = link["url"].as_str().unwrap();
    assert!(url.starts_with("/api/sharing/packets/"), "{url}");

    // The link needs no bearer token: a browser follows it as a download.
    let response = stack
        .http
        .get(stack.url(url.trim_start_matches("/api/")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(header("content-type"), "application/zip");
    assert!(
        header("content-disposition").starts_with("attachment; filename=\"evidence-packet-Packet-"),
        "{}",
        header("content-disposition")
    );
    let zip = response.bytes().await.unwrap();
    assert_eq!(&zip[..4], b"PK\x03\x04");

    // Without a token, for another user's folder, or by an unknown link: the API's errors.
    let (status, _) = stack.post(&path, json!({})).await;
    assert_eq!(status, 401);
    let stranger = stack.sign_up().await;
    let (status, _) = stack.post_auth(&path, &stranger.access, json!({})).await;
    assert_eq!(status, 404);
    let (status, refused) = stack.get("sharing/packets/unknown/").await;
    assert_eq!(status, 404, "{refused}");
}
