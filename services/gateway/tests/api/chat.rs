//! The conversation of a share through the gateway against the real components: numbering that
//! holds with concurrent writers and a reader polling meanwhile, idempotent sends, who may read
//! and write (another user's and another share's ids are 404), the owner's list with unread
//! counts, archive, custody entries, the per-token limit, read-only after revocation, and one
//! e-mail for a reader who is away however many messages arrive.

use std::{collections::BTreeSet, time::Duration};

use crate::support::{
    OK_CARD, SignedUp, Stack, code_for, folder, jpeg, mail_dir, share, upload, with_default_card,
};
use evidentia_common::testing;
use serde_json::{Value, json};

/// A share of one photo to `recipients` (e-mail addresses), paid by card; its id.
async fn shared(
    stack: &Stack,
    owner: &SignedUp,
    recipients: &[String],
    key: &str,
) -> (String, String) {
    let folder = folder(stack, &owner.access, "Deposit dispute").await;
    upload(
        stack,
        &owner.access,
        &folder,
        jpeg(320, 240, 40),
        "image/jpeg",
    )
    .await;
    let body = json!({
        "copy_type": "authenticated",
        "item_ids": [],
        "recipients": recipients.iter().map(|r| json!({ "email": r })).collect::<Vec<_>>(),
        "pay_with": "card",
    });
    let (status, created) = share(stack, &owner.access, &folder, key, &body).await;
    assert_eq!(status, 201, "{created}");
    (created["share"]["id"].as_str().unwrap().to_owned(), folder)
}

/// The recipient's access token, from the link and the code in their mailbox.
async fn token_for(stack: &Stack, to: &str) -> String {
    let (t1, t2) = testing::share_link(to).await;
    let (code_id, code, _) = code_for(stack, to, &t1, &t2, &[]).await;
    let (status, granted) = stack
        .post(
            &format!("sharing/code/{code_id}/check/"),
            json!({ "confirmation_code": code }),
        )
        .await;
    assert_eq!(status, 200, "{granted}");
    granted["access_folder_token"].as_str().unwrap().to_owned()
}

fn address(who: &str) -> String {
    format!("{who}-{}@example.com", uuid::Uuid::new_v4().simple())
}

async fn say_as_recipient(stack: &Stack, share: &str, token: &str, body: Value) -> (u16, Value) {
    let response = stack
        .http
        .post(stack.url(&format!("sharing/shared/{share}/chat/messages/anonymous/")))
        .header("X-Folder-Token", token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn read_as_recipient(stack: &Stack, share: &str, token: &str, after: i64) -> (u16, Value) {
    let response = stack
        .http
        .get(stack.url(&format!("sharing/shared/{share}/chat/?after={after}")))
        .header("X-Folder-Token", token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn seqs(chat: &Value) -> Vec<i64> {
    chat["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["seq"].as_i64().unwrap())
        .collect()
}

/// How many messages in the sinks went to `to` and contain `needle`.
fn messages_to(to: &str, needle: &str) -> usize {
    std::fs::read_dir(mail_dir())
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .map(|t| t.replace("=\r\n", "").replace("\r\n", "\n"))
                .filter(|t| t.contains(&format!("To: {to}")) && t.contains(needle))
                .count()
        })
        .unwrap_or(0)
}

#[tokio::test]
async fn a_share_conversation_keeps_order_sends_once_and_stays_with_its_share() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let (alice, bob) = (address("alice"), address("bob"));
    let (share_id, folder) = shared(
        &stack,
        &owner,
        &[alice.clone(), bob.clone()],
        "chat-share-1",
    )
    .await;
    let alice_token = token_for(&stack, &alice).await;
    let bob_token = token_for(&stack, &bob).await;
    let chat_path = format!("sharing/shared/{share_id}/chat/");

    let (status, empty) = stack.get_auth(&chat_path, &owner.access).await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty["last_seq"], 0);
    assert_eq!(empty["read_only"], false);

    // Thirty writers at once, while a reader polls with the last number it has: it sees every
    // message exactly once, in one order without gaps.
    let poller = {
        let stack_url = stack.url(&chat_path);
        let http = stack.http.clone();
        let access = owner.access.clone();
        tokio::spawn(async move {
            let mut seen = Vec::new();
            let mut after = 0;
            for _ in 0..400 {
                let chat: Value = http
                    .get(format!("{stack_url}?after={after}"))
                    .bearer_auth(&access)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                for seq in seqs(&chat) {
                    seen.push(seq);
                    after = seq;
                }
                if seen.len() >= 30 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            seen
        })
    };
    let mut writers = Vec::new();
    for n in 0..10 {
        let owner_path = format!("sharing/shared/{share_id}/chat/messages/");
        writers.push(tokio::spawn({
            let http = stack.http.clone();
            let url = stack.url(&owner_path);
            let access = owner.access.clone();
            async move {
                http.post(url)
                    .bearer_auth(access)
                    .json(&json!({ "content": format!("owner {n}"), "client_message_id": format!("o-{n}") }))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        }));
        for (who, token) in [("alice", &alice_token), ("bob", &bob_token)] {
            writers.push(tokio::spawn({
                let http = stack.http.clone();
                let url = stack.url(&format!("sharing/shared/{share_id}/chat/messages/anonymous/"));
                let token = token.clone();
                async move {
                    http.post(url)
                        .header("X-Folder-Token", token)
                        .json(&json!({ "content": format!("{who} {n}"), "client_message_id": format!("{who}-{n}") }))
                        .send()
                        .await
                        .unwrap()
                        .status()
                        .as_u16()
                }
            }));
        }
    }
    for writer in writers {
        assert_eq!(writer.await.unwrap(), 201);
    }
    let polled = poller.await.unwrap();
    assert_eq!(polled, (1..=30).collect::<Vec<_>>(), "the poller's view");

    let (_, all) = stack.get_auth(&chat_path, &owner.access).await;
    assert_eq!(seqs(&all), (1..=30).collect::<Vec<_>>());
    let contents: BTreeSet<_> = all["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(contents.len(), 30);
    let from_alice = all["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "alice 0")
        .unwrap();
    assert_eq!(
        from_alice["author_name"],
        format!("a***@{}", alice.split('@').nth(1).unwrap())
    );
    assert_eq!(from_alice["from_owner"], false);
    assert_eq!(from_alice["mine"], false);
    let from_owner = all["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "owner 0")
        .unwrap();
    assert_eq!(from_owner["author_name"], owner.username);
    assert_eq!(from_owner["mine"], true);

    // A retried send returns the message the first one made.
    let say = |content: &str, id: &str| json!({ "content": content, "client_message_id": id });
    let (status, first) = say_as_recipient(
        &stack,
        &share_id,
        &alice_token,
        say("Is the deposit back?", "retry-1"),
    )
    .await;
    assert_eq!(status, 201, "{first}");
    let (status, again) = say_as_recipient(
        &stack,
        &share_id,
        &alice_token,
        say("Is the deposit back?", "retry-1"),
    )
    .await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(again["id"], first["id"]);
    assert_eq!(again["seq"], 31);
    let (_, after) = read_as_recipient(&stack, &share_id, &alice_token, 30).await;
    assert_eq!(seqs(&after), vec![31]);
    assert_eq!(after["messages"][0]["mine"], true);

    // Plain text is kept as written, markup and all.
    let markup = "<b>not bold</b> & <script>alert(1)</script>";
    let (status, kept) = stack
        .post_auth(
            &format!("sharing/shared/{share_id}/chat/messages/"),
            &owner.access,
            say(markup, "markup-1"),
        )
        .await;
    assert_eq!(status, 201, "{kept}");
    assert_eq!(kept["content"], markup);

    // Bad input: clear field errors, nothing stored.
    for (body, field) in [
        (say("", "bad-1"), "content"),
        (say("   ", "bad-2"), "content"),
        (say(&"x".repeat(2001), "bad-3"), "content"),
        (say("\u{200B}\u{FEFF}", "bad-4"), "content"),
        (say("fine", "bad id"), "client_message_id"),
    ] {
        let (status, refused) = say_as_recipient(&stack, &share_id, &bob_token, body).await;
        assert_eq!(status, 400, "{refused}");
        assert_eq!(refused["errors"][0]["field"], field, "{refused}");
    }
    let (_, refused) = say_as_recipient(&stack, &share_id, &bob_token, say("", "bad-1")).await;
    assert_eq!(refused["errors"][0]["message"], "Write a message.");
    let (status, _) = say_as_recipient(&stack, &share_id, "", say("hi", "no-token")).await;
    assert_eq!(status, 401);
    let (status, _) = stack.get(&chat_path).await;
    assert_eq!(status, 401, "neither signed in nor a recipient");
    let (status, _) = stack
        .get_auth(&format!("{chat_path}?after=-1"), &owner.access)
        .await;
    assert_eq!(status, 400);
    let (_, last) = stack.get_auth(&chat_path, &owner.access).await;
    assert_eq!(last["last_seq"], 32, "nothing stored by the refused sends");

    // Another user's share, another share's id, an unknown id: 404 alike.
    let stranger = stack.sign_up().await;
    let (status, _) = stack.get_auth(&chat_path, &stranger.access).await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .post_auth(
            &format!("sharing/shared/{share_id}/chat/messages/"),
            &stranger.access,
            say("hi", "s-1"),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .post_auth(
            &format!("sharing/shared/{share_id}/chat/archive/"),
            &stranger.access,
            json!({ "confirm": true }),
        )
        .await;
    assert_eq!(status, 404);
    let carol = address("carol");
    let (other_share, _) =
        shared(&stack, &owner, std::slice::from_ref(&carol), "chat-share-2").await;
    let (status, _) = read_as_recipient(&stack, &other_share, &alice_token, 0).await;
    assert_eq!(
        status, 404,
        "a token opens its own share's conversation only"
    );
    let (status, _) = say_as_recipient(&stack, &other_share, &alice_token, say("hi", "x-1")).await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .get_auth(
            &format!("sharing/shared/{}/chat/", uuid::Uuid::new_v4()),
            &owner.access,
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = stack
        .get_auth("sharing/shared/not-an-id/chat/", &owner.access)
        .await;
    assert_eq!(status, 404);
    // One address per conversation: other spellings of the id name nothing.
    for spelling in [
        share_id.to_uppercase(),
        share_id.replace('-', ""),
        format!("{{{share_id}}}"),
    ] {
        let (status, _) = stack
            .get_auth(&format!("sharing/shared/{spelling}/chat/"), &owner.access)
            .await;
        assert_eq!(status, 404, "{spelling}");
    }

    // The owner's list: this share, with what the recipients wrote since the owner last read.
    let (status, _) = say_as_recipient(
        &stack,
        &share_id,
        &bob_token,
        say("Photos attached?", "bob-late"),
    )
    .await;
    assert_eq!(status, 201);
    let (status, list) = stack
        .get_auth("sharing/sharing-with-chats/", &owner.access)
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "the share without messages is not listed: {list}"
    );
    assert_eq!(list[0]["sharing_id"], share_id.as_str());
    assert_eq!(list[0]["unread"], 1, "{list}");
    assert_eq!(list[0]["last_content"], "Photos attached?");
    stack
        .get_auth(&format!("{chat_path}?after=32"), &owner.access)
        .await;
    let (_, list) = stack
        .get_auth("sharing/sharing-with-chats/", &owner.access)
        .await;
    assert_eq!(list[0]["unread"], 0, "{list}");
    let (_, strangers) = stack
        .get_auth("sharing/sharing-with-chats/", &stranger.access)
        .await;
    assert_eq!(strangers, json!([]));

    // Archive: asked first; off the owner's list; the recipients read on; news brings it back.
    let archive = format!("sharing/shared/{share_id}/chat/archive/");
    let (status, refused) = stack
        .post_auth(&archive, &owner.access, json!({ "confirm": false }))
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, _) = stack
        .post_auth(&archive, &owner.access, json!({ "confirm": true }))
        .await;
    assert_eq!(status, 204);
    let (_, list) = stack
        .get_auth("sharing/sharing-with-chats/", &owner.access)
        .await;
    assert_eq!(list, json!([]));
    let (status, still) = read_as_recipient(&stack, &share_id, &bob_token, 0).await;
    assert_eq!(status, 200);
    assert_eq!(seqs(&still).len(), 33);
    say_as_recipient(&stack, &share_id, &bob_token, say("Any news?", "bob-news")).await;
    let (_, list) = stack
        .get_auth("sharing/sharing-with-chats/", &owner.access)
        .await;
    assert_eq!(list[0]["sharing_id"], share_id.as_str(), "{list}");

    // Every message is in the custody log of the shared photo, and the chain holds.
    let (_, contents) = stack
        .get_auth(&format!("sharing/folder/{folder}/contents/"), &owner.access)
        .await;
    let log = contents["items"][0]["custody"].as_array().unwrap();
    let messages = log.iter().filter(|e| e["kind"] == "chat_message").count();
    assert_eq!(messages, 34, "one entry per message");
    let (_, check) = stack
        .post_auth(
            &format!("sharing/folder/{folder}/authenticate/"),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(check["items"][0]["intact"], true, "{check}");

    // A token writes at most 20 messages a minute (bob has written 12).
    let mut limited = None;
    for n in 0..25 {
        let (status, body) = say_as_recipient(
            &stack,
            &share_id,
            &bob_token,
            say("again", &format!("flood-{n}")),
        )
        .await;
        if status == 429 {
            limited = Some(body);
            break;
        }
        assert_eq!(status, 201, "{body}");
    }
    assert!(
        limited.is_some(),
        "the 21st message of the minute is refused"
    );
    // A retry of a message already stored is not another message: it is answered, limit or not.
    let (status, retried) = say_as_recipient(
        &stack,
        &share_id,
        &bob_token,
        say("Photos attached?", "bob-late"),
    )
    .await;
    assert_eq!(status, 201, "{retried}");
    assert_eq!(retried["seq"], 33);

    // A recipient with a stale sign-in of their own still reads by the folder token.
    let response = stack
        .http
        .get(stack.url(&chat_path))
        .bearer_auth("not-a-valid-token")
        .header("X-Folder-Token", &bob_token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);

    // Revoked: the owner reads but cannot write; the recipients' tokens have ended.
    let (status, _) = stack
        .post_auth(
            &format!("sharing/shares/{share_id}/revoke/"),
            &owner.access,
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let (_, closed) = stack.get_auth(&chat_path, &owner.access).await;
    assert_eq!(closed["read_only"], true);
    let (status, refused) = stack
        .post_auth(
            &format!("sharing/shared/{share_id}/chat/messages/"),
            &owner.access,
            say("hello?", "late-1"),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["errors"][0]["code"], "chat_closed", "{refused}");
    let (status, _) = read_as_recipient(&stack, &share_id, &alice_token, 0).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_reader_who_is_away_gets_one_notice_until_they_look_again() {
    let stack = Stack::start().await;
    let owner = stack.sign_up().await;
    with_default_card(&stack, &owner, OK_CARD).await;
    let recipient = address("landlord");
    let (share_id, _) = shared(
        &stack,
        &owner,
        std::slice::from_ref(&recipient),
        "chat-away-1",
    )
    .await;
    let token = token_for(&stack, &recipient).await;
    let say = |content: &str, id: &str| json!({ "content": content, "client_message_id": id });
    let notice = "about Deposit dispute on Evidentia";

    // Three messages while the owner is away: one e-mail, however long they stay away.
    for n in 0..3 {
        let (status, _) = say_as_recipient(
            &stack,
            &share_id,
            &token,
            say(&format!("message {n}"), &format!("m-{n}")),
        )
        .await;
        assert_eq!(status, 201);
    }
    testing::eventually("the owner's notice", Duration::from_secs(20), || async {
        (messages_to(&owner.email, notice) == 1).then_some(())
    })
    .await;
    let mail = std::fs::read_dir(mail_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|t| t.replace("=\r\n", "").replace("\r\n", "\n"))
        .find(|t| t.contains(&format!("To: {}", owner.email)) && t.contains(notice))
        .unwrap();
    assert!(mail.contains("3 new messages"), "{mail}");
    assert!(mail.contains(&format!("/chats/{share_id}")), "{mail}");
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (status, _) = say_as_recipient(&stack, &share_id, &token, say("still there?", "m-3")).await;
    assert_eq!(status, 201);
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        messages_to(&owner.email, notice),
        1,
        "one notice until the owner looks"
    );

    // The owner reads and answers; a new message while they are away again is a new notice.
    let (status, _) = stack
        .get_auth(&format!("sharing/shared/{share_id}/chat/"), &owner.access)
        .await;
    assert_eq!(status, 200);
    let (status, _) = stack
        .post_auth(
            &format!("sharing/shared/{share_id}/chat/messages/"),
            &owner.access,
            say("It is on its way.", "o-1"),
        )
        .await;
    assert_eq!(status, 201);
    let (status, _) = say_as_recipient(&stack, &share_id, &token, say("Thanks", "m-4")).await;
    assert_eq!(status, 201);
    testing::eventually(
        "the owner's second notice",
        Duration::from_secs(20),
        || async { (messages_to(&owner.email, notice) == 2).then_some(()) },
    )
    .await;

    // The recipient, away since 'Thanks', is told of the owner's answer with their share's link.
    testing::eventually(
        "the recipient's notice",
        Duration::from_secs(20),
        || async { (messages_to(&recipient, notice) == 1).then_some(()) },
    )
    .await;
    let (status, read) = read_as_recipient(&stack, &share_id, &token, 0).await;
    assert_eq!(status, 200);
    assert_eq!(seqs(&read).len(), 6);
}
