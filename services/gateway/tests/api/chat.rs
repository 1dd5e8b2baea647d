//! The chat routes through the gateway: the REST shapes and statuses of a share's conversation,
//! the owner signed in and a recipient by the `X-Folder-Token` header (which wins over a stale
//! sign-in of their own), the `after` query, the owner's list, archive and the 429 of the
//! per-token limit. The behaviour behind them is sharing's, tested next to it
//! (services/sharing/tests/api/chats.rs).

use crate::support::{
    OK_CARD, Stack, code_for, folder, jpeg, send, share, upload, with_default_card,
};
use evidentia_common::testing;
use serde_json::{Value, json};

/// `request` made by a recipient with their access token: its status and body.
async fn as_recipient(request: reqwest::RequestBuilder, token: &str) -> (u16, Value) {
    send(request.header("X-Folder-Token", token)).await
}

#[tokio::test]
async fn chat_routes_answer_their_rest_shapes_and_statuses() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let folder = folder(&stack, &owner.access, "Deposit dispute").await;
    upload(
        &stack,
        &owner.access,
        &folder,
        jpeg(320, 240, 40),
        "image/jpeg",
    )
    .await;
    let recipient = format!("landlord-{}@example.com", uuid::Uuid::new_v4().simple());
    let body = json!({
        "copy_type": "authenticated",
        "item_ids": [],
        "recipients": [{ "email": recipient }],
        "pay_with": "card",
    });
    let (status, created) = share(&stack, &owner.access, &folder, "chat-share-1", &body).await;
    assert_eq!(status, 201, "{created}");
    let share_id = created["share"]["id"].as_str().unwrap().to_owned();
    let (t1, t2) = testing::share_link(&recipient).await;
    let (code_id, code, _) = code_for(&stack, &recipient, &t1, &t2, &[]).await;
    let (_, granted) = stack
        .post(
            &format!("sharing/code/{code_id}/check/"),
            json!({ "confirmation_code": code }),
        )
        .await;
    let token = granted["access_folder_token"].as_str().unwrap().to_owned();
    let chat = format!("sharing/shared/{share_id}/chat/");
    let write = format!("sharing/shared/{share_id}/chat/messages/");
    let write_anonymous = format!("sharing/shared/{share_id}/chat/messages/anonymous/");
    let say = |content: &str, id: &str| json!({ "content": content, "client_message_id": id });

    // The owner writes signed in, the recipient by the header: 201 and the message.
    let (status, mine) = stack
        .post_auth(&write, &owner.access, say("It is on its way.", "o-1"))
        .await;
    assert_eq!(status, 201, "{mine}");
    assert_eq!(
        (mine["seq"].as_i64(), &mine["mine"]),
        (Some(1), &json!(true))
    );
    let post = stack.http.post(stack.url(&write_anonymous));
    let (status, theirs) = as_recipient(post.json(&say("Thanks", "r-1")), &token).await;
    assert_eq!(status, 201, "{theirs}");
    assert_eq!(theirs["from_owner"], false, "{theirs}");

    // Reading: the `after` query, 401 without anyone, and the folder token over a stale
    // sign-in of the recipient's own.
    let (status, read) = stack
        .get_auth(&format!("{chat}?after=1"), &owner.access)
        .await;
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["last_seq"], 2);
    assert_eq!(read["read_only"], false);
    assert_eq!(read["messages"][0]["content"], "Thanks", "{read}");
    let (status, refused) = stack
        .get_auth(&format!("{chat}?after=-1"), &owner.access)
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "after", "{refused}");
    let (status, _) = stack.get(&chat).await;
    assert_eq!(status, 401, "neither signed in nor a recipient");
    let post = stack.http.post(stack.url(&write_anonymous));
    let (status, _) = as_recipient(post.json(&say("hi", "r-2")), "").await;
    assert_eq!(status, 401);
    let stale = stack
        .http
        .get(stack.url(&chat))
        .bearer_auth("not-a-valid-token");
    let (status, read) = as_recipient(stale, &token).await;
    assert_eq!(status, 200, "{read}");
    let (status, _) = stack
        .get_auth("sharing/shared/not-an-id/chat/", &owner.access)
        .await;
    assert_eq!(status, 404);

    // A field error, and the per-token limit as 429.
    let post = stack.http.post(stack.url(&write_anonymous));
    let (status, refused) = as_recipient(post.json(&say("", "r-3")), &token).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["field"], "content");
    assert_eq!(refused["errors"][0]["message"], "Write a message.");
    let mut statuses = Vec::new();
    for n in 0..25 {
        let post = stack.http.post(stack.url(&write_anonymous));
        let (status, _) =
            as_recipient(post.json(&say("again", &format!("flood-{n}"))), &token).await;
        statuses.push(status);
        if status != 201 {
            break;
        }
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");

    // The owner's list, and archive: asked first, then 204.
    let (status, list) = stack
        .get_auth("sharing/sharing-with-chats/", &owner.access)
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list[0]["sharing_id"], share_id.as_str(), "{list}");
    let archive = format!("sharing/shared/{share_id}/chat/archive/");
    let (status, refused) = stack
        .post_auth(&archive, &owner.access, json!({ "confirm": false }))
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, _) = stack
        .post_auth(&archive, &owner.access, json!({ "confirm": true }))
        .await;
    assert_eq!(status, 204);

    // Revoked: writing is a 400 with its reason as `code`, the recipient's token a 401.
    let (status, _) = stack
        .post_auth(
            &format!("sharing/shares/{share_id}/revoke/"),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, refused) = stack
        .post_auth(&write, &owner.access, say("hello?", "late-1"))
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["code"], "chat_closed", "{refused}");
    let (status, _) = as_recipient(stack.http.get(stack.url(&chat)), &token).await;
    assert_eq!(status, 401);
}
