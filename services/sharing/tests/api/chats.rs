//! The conversation of a share: numbering that holds with concurrent writers and a reader polling
//! meanwhile, idempotent sends, who may read and write (another user's and another share's ids
//! are NOT_FOUND), the owner's list with unread counts, archive, custody entries, the per-token
//! limit, read-only after revocation, and one e-mail for a reader who is away however many
//! messages arrive.

use std::{collections::BTreeSet, time::Duration};

use evidentia_common::{
    proto::sharing::v1::{self as pb, sharing_service_client::SharingServiceClient},
    testing::{self, count_mail, field_errors, jpeg, read_message},
};
use tonic::{Code, Request, Status, transport::Channel};

use crate::helpers::{TestApp, User, email, unique};

/// A share of one photo to `recipients` (e-mail addresses), paid by card: its id and folder.
async fn shared(app: &TestApp, owner: &User, recipients: &[String], key: &str) -> (String, String) {
    let folder = app.folder(owner, "Deposit dispute").await;
    app.upload(owner, &folder, jpeg(320, 240, 40), "image/jpeg")
        .await;
    let created = app
        .share(
            owner,
            pb::CreateShareRequest {
                folder_id: folder.clone(),
                copy_type: pb::CopyType::Authenticated as i32,
                item_ids: vec![],
                recipients: recipients.iter().map(|r| email(r)).collect(),
                pay_with: "card".into(),
                idempotency_key: key.into(),
            },
        )
        .await
        .unwrap();
    (created.share.unwrap().id, folder)
}

/// Who reads or writes a conversation: its owner (signed in), or a recipient by their token.
#[derive(Clone)]
enum As<'a> {
    Owner(&'a User),
    Recipient(&'a str),
}

impl As<'_> {
    fn req<T>(&self, message: T) -> Request<T> {
        match self {
            Self::Owner(user) => user.req(message),
            Self::Recipient(_) => Request::new(message),
        }
    }

    fn token(&self) -> String {
        match self {
            Self::Owner(_) => String::new(),
            Self::Recipient(token) => (*token).to_owned(),
        }
    }
}

async fn read(
    mut client: SharingServiceClient<Channel>,
    who: As<'_>,
    share: &str,
    after: i64,
) -> Result<pb::Chat, Status> {
    client
        .get_chat(who.req(pb::GetChatRequest {
            share_id: share.into(),
            access_token: who.token(),
            after,
        }))
        .await
        .map(tonic::Response::into_inner)
}

async fn say(
    mut client: SharingServiceClient<Channel>,
    who: As<'_>,
    share: &str,
    content: &str,
    id: &str,
) -> Result<pb::ChatMessage, Status> {
    client
        .post_chat_message(who.req(pb::PostChatMessageRequest {
            share_id: share.into(),
            access_token: who.token(),
            client_message_id: id.into(),
            content: content.into(),
        }))
        .await
        .map(tonic::Response::into_inner)
}

async fn chats(app: &TestApp, user: &User) -> Vec<pb::ChatSummary> {
    app.sharing()
        .list_chats(user.req(pb::ListChatsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .chats
}

async fn archive(app: &TestApp, user: &User, share: &str, confirm: bool) -> Result<(), Status> {
    app.sharing()
        .archive_chat(user.req(pb::ArchiveChatRequest {
            share_id: share.into(),
            confirm,
        }))
        .await
        .map(drop)
}

fn seqs(chat: &pb::Chat) -> Vec<i64> {
    chat.messages.iter().map(|m| m.seq).collect()
}

#[track_caller]
fn assert_not_found<T: std::fmt::Debug>(answer: &Result<T, Status>, what: &str) {
    assert_eq!(
        answer.as_ref().map_err(Status::code).err(),
        Some(Code::NotFound),
        "{what}: {answer:?}"
    );
}

#[tokio::test]
async fn a_share_conversation_keeps_order_sends_once_and_stays_with_its_share() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let (alice, bob) = (unique("alice"), unique("bob"));
    let (share_id, folder) =
        shared(&app, &owner, &[alice.clone(), bob.clone()], "chat-share-1").await;
    let alice_token = app.access_token(&alice).await;
    let bob_token = app.access_token(&bob).await;
    let (as_owner, as_alice, as_bob) = (
        As::Owner(&owner),
        As::Recipient(&alice_token),
        As::Recipient(&bob_token),
    );

    let empty = read(app.sharing(), as_owner.clone(), &share_id, 0)
        .await
        .unwrap();
    assert_eq!(empty.last_seq, 0);
    assert!(!empty.read_only);

    // Thirty writers at once, while a reader polls with the last number it has: it sees every
    // message exactly once, in one order without gaps.
    let poller = {
        let client = app.sharing();
        let caller = owner.caller();
        let share_id = share_id.clone();
        tokio::spawn(async move {
            let mut seen = Vec::new();
            let mut after = 0;
            for _ in 0..400 {
                let chat = client
                    .clone()
                    .get_chat(caller.request(pb::GetChatRequest {
                        share_id: share_id.clone(),
                        access_token: String::new(),
                        after,
                    }))
                    .await
                    .unwrap()
                    .into_inner();
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
        let writes = [
            (owner.caller(), String::new(), "owner", "o"),
            (Default::default(), alice_token.clone(), "alice", "alice"),
            (Default::default(), bob_token.clone(), "bob", "bob"),
        ];
        for (caller, token, who, id) in writes {
            let mut client = app.sharing();
            let share_id = share_id.clone();
            let caller: evidentia_common::grpc::Caller = caller;
            writers.push(tokio::spawn(async move {
                client
                    .post_chat_message(caller.request(pb::PostChatMessageRequest {
                        share_id,
                        access_token: token,
                        client_message_id: format!("{id}-{n}"),
                        content: format!("{who} {n}"),
                    }))
                    .await
                    .map(drop)
            }));
        }
    }
    for writer in writers {
        writer.await.unwrap().unwrap();
    }
    let polled = poller.await.unwrap();
    assert_eq!(polled, (1..=30).collect::<Vec<_>>(), "the poller's view");

    let all = read(app.sharing(), as_owner.clone(), &share_id, 0)
        .await
        .unwrap();
    assert_eq!(seqs(&all), (1..=30).collect::<Vec<_>>());
    let contents: BTreeSet<_> = all.messages.iter().map(|m| m.content.clone()).collect();
    assert_eq!(contents.len(), 30);
    let from_alice = all
        .messages
        .iter()
        .find(|m| m.content == "alice 0")
        .unwrap();
    assert_eq!(
        from_alice.author_name,
        format!("a***@{}", alice.split('@').nth(1).unwrap())
    );
    assert!(!from_alice.from_owner);
    assert!(!from_alice.mine);
    let from_owner = all
        .messages
        .iter()
        .find(|m| m.content == "owner 0")
        .unwrap();
    assert_eq!(from_owner.author_name, owner.username);
    assert!(from_owner.mine);

    // A retried send returns the message the first one made.
    let send = || {
        say(
            app.sharing(),
            as_alice.clone(),
            &share_id,
            "Is the deposit back?",
            "retry-1",
        )
    };
    let first = send().await.unwrap();
    let again = send().await.unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(again.seq, 31);
    let after = read(app.sharing(), as_alice.clone(), &share_id, 30)
        .await
        .unwrap();
    assert_eq!(seqs(&after), vec![31]);
    assert!(after.messages[0].mine);

    // Plain text is kept as written, markup and all.
    let markup = "<b>not bold</b> & <script>alert(1)</script>";
    let kept = say(
        app.sharing(),
        as_owner.clone(),
        &share_id,
        markup,
        "markup-1",
    )
    .await
    .unwrap();
    assert_eq!(kept.content, markup);

    // Bad input: clear field errors, nothing stored.
    let long = "x".repeat(2001);
    for (content, id, field) in [
        ("", "bad-1", "content"),
        ("   ", "bad-2", "content"),
        (long.as_str(), "bad-3", "content"),
        ("\u{200B}\u{FEFF}", "bad-4", "content"),
        ("fine", "bad id", "client_message_id"),
    ] {
        let refused = say(app.sharing(), as_bob.clone(), &share_id, content, id)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert_eq!(field_errors(&refused)[0].0, field, "{refused:?}");
    }
    let refused = say(app.sharing(), as_bob.clone(), &share_id, "", "bad-1")
        .await
        .unwrap_err();
    assert_eq!(field_errors(&refused)[0].1, "Write a message.");
    let anonymous = read(app.sharing(), As::Recipient(""), &share_id, 0)
        .await
        .unwrap_err();
    assert_eq!(
        anonymous.code(),
        Code::Unauthenticated,
        "neither signed in nor a recipient"
    );
    let last = read(app.sharing(), as_owner.clone(), &share_id, 0)
        .await
        .unwrap();
    assert_eq!(last.last_seq, 32, "nothing stored by the refused sends");

    // Another user's share, another share's id, an unknown id: NOT_FOUND alike.
    let stranger = app.sign_up().await;
    let as_stranger = As::Owner(&stranger);
    assert_not_found(
        &read(app.sharing(), as_stranger.clone(), &share_id, 0).await,
        "another user's conversation",
    );
    assert_not_found(
        &say(app.sharing(), as_stranger.clone(), &share_id, "hi", "s-1").await,
        "writing to another user's conversation",
    );
    assert_not_found(
        &archive(&app, &stranger, &share_id, true).await,
        "archiving another user's conversation",
    );
    let carol = unique("carol");
    let (other_share, _) = shared(&app, &owner, std::slice::from_ref(&carol), "chat-share-2").await;
    assert_not_found(
        &read(app.sharing(), as_alice.clone(), &other_share, 0).await,
        "a token opens its own share's conversation only",
    );
    assert_not_found(
        &say(app.sharing(), as_alice.clone(), &other_share, "hi", "x-1").await,
        "a token writes to its own share's conversation only",
    );
    // One address per conversation: other spellings of the id name nothing.
    for spelling in [
        uuid::Uuid::new_v4().to_string(),
        "not-an-id".to_owned(),
        share_id.to_uppercase(),
        share_id.replace('-', ""),
        format!("{{{share_id}}}"),
    ] {
        assert_not_found(
            &read(app.sharing(), as_owner.clone(), &spelling, 0).await,
            &spelling,
        );
    }

    // The owner's list: this share, with what the recipients wrote since the owner last read.
    let late = || {
        say(
            app.sharing(),
            as_bob.clone(),
            &share_id,
            "Photos attached?",
            "bob-late",
        )
    };
    late().await.unwrap();
    let list = chats(&app, &owner).await;
    assert_eq!(
        list.len(),
        1,
        "the share without messages is not listed: {list:?}"
    );
    assert_eq!(list[0].share_id, share_id);
    assert_eq!(list[0].unread, 1, "{list:?}");
    assert_eq!(list[0].last_content, "Photos attached?");
    read(app.sharing(), as_owner.clone(), &share_id, 32)
        .await
        .unwrap();
    let list = chats(&app, &owner).await;
    assert_eq!(list[0].unread, 0, "{list:?}");
    assert!(chats(&app, &stranger).await.is_empty());

    // Archive: asked first; off the owner's list; the recipients read on; news brings it back.
    let refused = archive(&app, &owner, &share_id, false).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    archive(&app, &owner, &share_id, true).await.unwrap();
    assert!(chats(&app, &owner).await.is_empty());
    let still = read(app.sharing(), as_bob.clone(), &share_id, 0)
        .await
        .unwrap();
    assert_eq!(seqs(&still).len(), 33);
    say(
        app.sharing(),
        as_bob.clone(),
        &share_id,
        "Any news?",
        "bob-news",
    )
    .await
    .unwrap();
    let list = chats(&app, &owner).await;
    assert_eq!(list[0].share_id, share_id, "{list:?}");

    // Every message is in the custody log of the shared photo, and the chain holds.
    let contents = app.custody(&owner, &folder).await;
    let messages = contents.items[0]
        .custody
        .iter()
        .filter(|e| e.kind == "chat_message")
        .count();
    assert_eq!(messages, 34, "one entry per message");
    let check = app.check_custody(&owner, &folder).await;
    assert!(check.items[0].intact, "{check:?}");

    // A token writes at most 20 messages a minute (bob has written 12).
    let mut limited = None;
    for n in 0..25 {
        match say(
            app.sharing(),
            as_bob.clone(),
            &share_id,
            "again",
            &format!("flood-{n}"),
        )
        .await
        {
            Ok(_) => {}
            Err(status) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                limited = Some(status);
                break;
            }
        }
    }
    assert!(
        limited.is_some(),
        "the 21st message of the minute is refused"
    );
    // A retry of a message already stored is not another message: it is answered, limit or not.
    let retried = late().await.unwrap();
    assert_eq!(retried.seq, 33);

    // Revoked: the owner reads but cannot write; the recipients' tokens have ended.
    app.sharing()
        .revoke_share(owner.req(pb::RevokeShareRequest {
            share_id: share_id.clone(),
        }))
        .await
        .unwrap();
    let closed = read(app.sharing(), as_owner.clone(), &share_id, 0)
        .await
        .unwrap();
    assert!(closed.read_only);
    let refused = say(app.sharing(), as_owner, &share_id, "hello?", "late-1")
        .await
        .unwrap_err();
    assert_eq!(
        testing::reason(&refused).as_deref(),
        Some("chat_closed"),
        "{refused:?}"
    );
    let ended = read(app.sharing(), as_alice, &share_id, 0)
        .await
        .unwrap_err();
    assert_eq!(ended.code(), Code::Unauthenticated, "{ended:?}");
}

#[tokio::test]
async fn a_reader_who_is_away_gets_one_notice_until_they_look_again() {
    let app = TestApp::spawn().await;
    let owner = app.sharer().await;
    let recipient = unique("landlord");
    let (share_id, _) = shared(
        &app,
        &owner,
        std::slice::from_ref(&recipient),
        "chat-away-1",
    )
    .await;
    let token = app.access_token(&recipient).await;
    let as_recipient = As::Recipient(&token);
    let notice = "about Deposit dispute on Evidentia";

    // Three messages while the owner is away: one e-mail, however long they stay away.
    for n in 0..3 {
        say(
            app.sharing(),
            as_recipient.clone(),
            &share_id,
            &format!("message {n}"),
            &format!("m-{n}"),
        )
        .await
        .unwrap();
    }
    testing::eventually("the owner's notice", Duration::from_secs(20), || async {
        (count_mail(&owner.email, notice) == 1).then_some(())
    })
    .await;
    let mail = read_message(&owner.email, notice, &[]).await;
    assert!(mail.contains("3 new messages"), "{mail}");
    assert!(mail.contains(&format!("/chats/{share_id}")), "{mail}");
    tokio::time::sleep(Duration::from_secs(4)).await;
    say(
        app.sharing(),
        as_recipient.clone(),
        &share_id,
        "still there?",
        "m-3",
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(
        count_mail(&owner.email, notice),
        1,
        "one notice until the owner looks"
    );

    // The owner reads and answers; a new message while they are away again is a new notice.
    read(app.sharing(), As::Owner(&owner), &share_id, 0)
        .await
        .unwrap();
    say(
        app.sharing(),
        As::Owner(&owner),
        &share_id,
        "It is on its way.",
        "o-1",
    )
    .await
    .unwrap();
    say(
        app.sharing(),
        as_recipient.clone(),
        &share_id,
        "Thanks",
        "m-4",
    )
    .await
    .unwrap();
    testing::eventually(
        "the owner's second notice",
        Duration::from_secs(20),
        || async { (count_mail(&owner.email, notice) == 2).then_some(()) },
    )
    .await;

    // The recipient, away since 'Thanks', is told of the owner's answer with their share's link.
    testing::eventually(
        "the recipient's notice",
        Duration::from_secs(20),
        || async { (count_mail(&recipient, notice) == 1).then_some(()) },
    )
    .await;
    let read_back = read(app.sharing(), as_recipient, &share_id, 0)
        .await
        .unwrap();
    assert_eq!(seqs(&read_back).len(), 6);
}
